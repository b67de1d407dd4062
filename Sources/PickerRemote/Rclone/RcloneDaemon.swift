import Foundation

/// One `rclone rcd` for the whole run, shared by every rclone source: the
/// user's own rclone with the user's own config, so the picker never reads
/// or stores cloud credentials. It listens on a random loopback port with a
/// random user and password, given through the environment (arguments
/// show in the process list; the environment only to the same user), and
/// serves remotes' files with `--rc-serve` (ranged GETs honoured).
public final class RcloneDaemon: @unchecked Sendable {
  public let baseURL: String
  public let authorization: String
  private let child: ChildProcess
  private let logReader: Thread?

  private static let lock = NSLock()
  nonisolated(unsafe) private static var running: [String: RcloneDaemon] = [:]
  nonisolated(unsafe) private static var failures: [String: SourceError] = [:]

  /// The daemon for `executable`, started on first use. A start that failed
  /// is not retried in the same run: every source would wait for it again.
  public static func shared(executable: String, log: LogFile?) throws(SourceError) -> RcloneDaemon {
    let result: Result<RcloneDaemon, SourceError> = lock.withLock {
      // A daemon that was killed is started again on the next request.
      if let daemon = running[executable], daemon.isRunning { return .success(daemon) }
      if let failure = failures[executable] { return .failure(failure) }
      do throws(SourceError) {
        let daemon = try RcloneDaemon(executable: executable, log: log)
        running[executable] = daemon
        return .success(daemon)
      } catch {
        failures[executable] = error
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Ends every daemon (the picker's exit paths call this).
  public static func stopAll() {
    let daemons = lock.withLock { () -> [RcloneDaemon] in
      defer { running = [:] }
      return Array(running.values)
    }
    for daemon in daemons { daemon.child.end(grace: 0) }
  }

  private init(executable: String, log: LogFile?) throws(SourceError) {
    let user = Self.randomToken()
    let password = Self.randomToken()
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw SourceError("cannot create a pipe") }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    guard let program = Self.find(executable) else {
      throw SourceError(
        executable == "rclone"
          ? "rclone is not installed (or not on PATH): install it, or set rclone = \"/path/to/rclone\""
          : "cannot start \(executable): not found or not executable")
    }
    // rclone runs under a shell that waits on the pipe we hold as its stdin
    // and ends rclone when that pipe closes: when the picker exits, and also
    // when it is killed or crashes, so a daemon holding the user's remotes
    // open never outlives it.
    let watchdog = "\"$0\" \"$@\" </dev/null & rclone=$!; read -r _; kill $rclone 2>/dev/null"
    let command = [
      "/bin/sh", "-c", watchdog, program, "rcd", "--rc-addr", "127.0.0.1:0", "--rc-serve", "--log-level", "NOTICE",
    ]
    do {
      child = try ChildProcess(
        command: command, stderr: fds[1], environment: ["RCLONE_RC_USER=\(user)", "RCLONE_RC_PASS=\(password)"])
    } catch {
      close(fds[0])
      close(fds[1])
      throw SourceError(
        executable == "rclone"
          ? "rclone is not installed (or not on PATH): install it, or set rclone = \"/path/to/rclone\""
          : "cannot start \(executable): \(error.message)")
    }
    close(fds[1])
    // rclone says where it listens on stderr: "Serving remote control on
    // http://127.0.0.1:PORT/". Anything before is kept for the error.
    var said: [UInt8] = []
    var address: String?
    let deadline = Date(timeIntervalSinceNow: 10)
    while address == nil, Date() < deadline {
      var ready = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 200) >= 0 || errno == EINTR else { break }
      guard ready.revents != 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
      if n <= 0 { break }
      said += buffer[..<n]
      let text = String(decoding: said, as: UTF8.self)
      if let range = text.range(of: "Serving remote control on ") {
        let rest = text[range.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "\n" || $0 == " " }) { address = String(rest[..<end]) }
      }
    }
    guard let address, URLResolver.isHTTP(address) else {
      child.end(grace: 0)
      close(fds[0])
      let reason = String(decoding: said, as: UTF8.self).split(separator: "\n").last.map(String.init)
      throw SourceError("rclone rcd did not start" + (reason.map { ": " + $0 } ?? ""))
    }
    baseURL = address.hasSuffix("/") ? String(address.dropLast()) : address
    authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    // What rclone says from now on goes to the log, never the screen.
    let readEnd = fds[0]
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = FileIO.read(readEnd, into: &buffer)
        if n <= 0 { break }
        log?.write("rclone: " + String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .newlines))
      }
      close(readEnd)
    }
    thread.name = "rclone-log"
    thread.start()
    logReader = thread
  }

  private let stateLock = NSLock()
  private var refused = false

  /// Whether rclone is still there: its watchdog shell has not ended, and
  /// no request found its port closed (rclone killed under the shell).
  public var isRunning: Bool { child.poll() == nil && !stateLock.withLock { refused } }

  /// A request could not reach rclone: the next one starts a new daemon.
  public func markUnreachable() { stateLock.withLock { refused = true } }

  /// The program as a path: itself when it names one, else found on PATH.
  static func find(_ executable: String) -> String? {
    if executable.contains("/") { return access(executable, X_OK) == 0 ? executable : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = folder + "/" + executable
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  private static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
  }
}
