import Foundation

/// Runs a helper program the picker waits for (tmux's options at start) with
/// a bound on how long: a child that hangs is ended, and the caller goes on
/// as if it had failed, so a hung tmux cannot hang the picker's start.
public enum BoundedChild {
  /// The child's stdout when it exits 0 within `seconds`; nil otherwise.
  public static func output(of arguments: [String], seconds: Double) -> Data? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    do { try process.run() } catch { return nil }
    // Read on another thread: a child writing more than a pipe holds must
    // not block its own exit.
    let reader = OutputReader()
    let handle = pipe.fileHandleForReading
    let read = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      reader.data = handle.readDataToEndOfFile()
      read.signal()
    }
    guard exited.wait(timeout: .now() + seconds) == .success else {
      process.terminate()
      if exited.wait(timeout: .now() + 0.2) != .success { kill(process.processIdentifier, SIGKILL) }
      return nil
    }
    // A grandchild may keep the pipe open: bounded too.
    guard read.wait(timeout: .now() + 0.2) == .success, process.terminationStatus == 0 else { return nil }
    return reader.data
  }
}

private final class OutputReader: @unchecked Sendable {
  var data = Data()
}
