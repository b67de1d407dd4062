import Foundation

/// A program started with pipes for stdin and stdout and stderr sent to a
/// file, in a process group of its own (so it can be ended whole, and
/// terminal signals meant for the picker do not reach it).
///
/// The picker ignores SIGPIPE; ignored signals survive exec, so the child
/// gets the default action back here, or a `| head` inside it would spin.
final class ChildProcess: @unchecked Sendable {
  let pid: pid_t
  /// The child's stdin (we write) and stdout (we read).
  let input: Int32
  let output: Int32
  private let lock = NSLock()
  private var exitStatus: Int32?
  private static let spawnLock = NSLock()

  /// `environment`: "NAME=value" entries added to the picker's own (for
  /// secrets that must not show in the process list, as arguments do).
  init(command: [String], stderr: Int32, environment: [String] = []) throws(SourceError) {
    guard let program = command.first, !program.isEmpty else { throw SourceError("the command is empty") }
    // Pipes are made close-on-exec under one lock, so that two sources
    // starting at once cannot each inherit the other's pipe ends.
    Self.spawnLock.lock()
    defer { Self.spawnLock.unlock() }
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0 else { throw SourceError("cannot create a pipe") }
    guard pipe(&fromChild) == 0 else {
      close(toChild[0])
      close(toChild[1])
      throw SourceError("cannot create a pipe")
    }
    for end in toChild + fromChild { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copies, and only on them.
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

    let arguments = command.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    let added = environment.map { strdup($0) }
    defer { added.forEach { free($0) } }
    var inherited: [UnsafeMutablePointer<CChar>?] = []
    var index = 0
    while let entry = environ[index] {
      inherited.append(entry)
      index += 1
    }
    let variables = inherited + added + [nil]
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, program, &actions, &attributes, arguments, variables)
    close(toChild[0])
    close(fromChild[1])
    guard status == 0 else {
      close(toChild[1])
      close(fromChild[0])
      throw SourceError("cannot start \(program): \(String(cString: strerror(status)))")
    }
    self.pid = pid
    self.input = toChild[1]
    self.output = fromChild[0]
  }

  private var inputIsOpen = true
  private let writeLock = NSLock()

  deinit {
    closeInput()
    close(output)
  }

  /// The child sees the end of its stdin; once only, as the number could
  /// name another file after.
  func closeInput() {
    writeLock.withLock {
      guard inputIsOpen else { return }
      inputIsOpen = false
      close(input)
    }
  }

  /// Writes a whole message; false once the child has gone or its input was
  /// closed. One writer at a time, so messages never interleave, and never
  /// after `closeInput` (the number could name another file by then).
  func write(_ bytes: [UInt8]) -> Bool {
    writeLock.withLock { inputIsOpen && FileIO.writeAll(input, bytes) }
  }

  /// Reads what is there, blocking; empty at end of file.
  func read() -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let n = FileIO.read(output, into: &buffer)
    return n > 0 ? Array(buffer[..<n]) : []
  }

  /// Reaps the child if it has exited; its wait status.
  func poll() -> Int32? {
    lock.withLock {
      if exitStatus != nil { return exitStatus }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
      return exitStatus
    }
  }

  /// Ends the child: waits `grace` seconds for it to leave on its own, then
  /// SIGTERM, then SIGKILL to its whole group. Returns the wait status.
  @discardableResult
  func end(grace: Double) -> Int32? {
    if let status = waitFor(seconds: grace) { return status }
    kill(-pid, SIGTERM)
    if let status = waitFor(seconds: 0.3) { return status }
    kill(-pid, SIGKILL)
    return waitFor(seconds: 1)
  }

  private func waitFor(seconds: Double) -> Int32? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    repeat {
      if let status = poll() { return status }
      usleep(10_000)
    } while Date() < deadline
    return poll()
  }

  /// "exited with status 3", "was killed by signal 9".
  static func describe(_ status: Int32?) -> String {
    guard let status else { return "stopped answering" }
    let signal = status & 0x7f
    if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
    return "was killed by signal \(signal)"
  }
}
