import Foundation

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// Programs the tests run (Python, exiftool, ImageMagick, the photo
/// server), started with posix_spawn and waited for with waitpid.
///
/// Not Foundation's `Process`: on Linux it learns that a child exited from a
/// dispatch source, served by the same threads Swift Testing runs tests on.
/// With two cores there are two; two tests each waiting in
/// `waitUntilExit` (two web tests ending their photo servers) held both,
/// no exit was ever seen, and the whole test run hung.
final class ChildRun: @unchecked Sendable {
  let pid: pid_t
  /// The child's stdout, when it was asked for.
  let output: FileHandle?

  /// Starts `arguments` (the first found on PATH); stderr goes to
  /// /dev/null, stdout to `output` or /dev/null.
  init(_ arguments: [String], captureOutput: Bool = false) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipeEnds: [Int32] = [-1, -1]
    if captureOutput {
      guard pipe(&pipeEnds) == 0 else { throw SourceError("pipe: \(errno)") }
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let status = posix_spawnp(&child, arguments[0], &actions, nil, argv, environ)
    if captureOutput { close(pipeEnds[1]) }
    guard status == 0 else {
      if captureOutput { close(pipeEnds[0]) }
      throw SourceError("could not start \(arguments[0]): \(String(cString: strerror(status)))")
    }
    pid = child
    output = captureOutput ? FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true) : nil
  }

  /// Waits for the child; its exit status (128 + the signal if killed).
  @discardableResult
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Runs `arguments` to the end: its status and stdout.
  static func run(_ arguments: [String]) throws -> (status: Int32, output: [UInt8]) {
    let child = try ChildRun(arguments, captureOutput: true)
    let data = child.output?.readDataToEndOfFile() ?? Data()
    return (child.wait(), Array(data))
  }
}
