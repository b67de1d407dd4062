import Foundation

/// The picker's log, `$XDG_STATE_HOME/picker-tui/picker-tui.log`: what
/// went wrong with sources, and the stderr of command sources (never the
/// screen). Credentials are never written to it.
public final class LogFile: @unchecked Sendable {
  public let path: String
  /// Open for appending; children's stderr is this descriptor.
  public let descriptor: Int32
  private let lock = NSLock()
  /// Past this size the log starts over, keeping one old copy.
  static let maxBytes = 1 << 20

  public init?(path: String) {
    guard PrivateFiles.makeFolder((path as NSString).deletingLastPathComponent) else { return nil }
    var info = stat()
    if stat(path, &info) == 0, info.st_size > Self.maxBytes { rename(path, path + ".1") }
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { return nil }
    self.path = path
    self.descriptor = fd
  }

  public static func forCurrentUser(environment: [String: String]) -> LogFile? {
    LogFile(path: PrivateFiles.stateFolder(environment: environment) + "/picker-tui.log")
  }

  deinit { close(descriptor) }

  /// Made once: a formatter is costly to build. Used under `lock` only.
  private let formatter = ISO8601DateFormatter()

  /// One line, with the time and the process id.
  public func write(_ message: String) {
    lock.withLock {
      let line = "\(formatter.string(from: Date())) [\(getpid())] \(message)\n"
      _ = FileIO.writeAll(descriptor, Array(line.utf8))
    }
  }
}
