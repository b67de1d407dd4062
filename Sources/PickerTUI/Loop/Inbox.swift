import Foundation
import PickerCore

/// Where background work leaves events for the main thread: a locked queue
/// plus one byte on a pipe, so the loop's poll() wakes up.
final class Inbox: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [AppEvent] = []
  private let readEnd: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { fatalError("cannot create the wake-up pipe") }
    readEnd = ends[0]
    writeEnd = ends[1]
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
  }

  deinit {
    Foundation.close(readEnd)
    Foundation.close(writeEnd)
  }

  /// The descriptor that becomes readable when events wait.
  var wakeDescriptor: Int32 { readEnd }

  /// Called from any thread.
  func post(_ event: AppEvent) {
    lock.lock()
    events.append(event)
    lock.unlock()
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)  // a full pipe already means "wake up"
  }

  /// Everything posted so far, in order.
  func drain() -> [AppEvent] {
    var buffer = [UInt8](repeating: 0, count: 256)
    while read(readEnd, &buffer, buffer.count) > 0 {}
    lock.lock()
    defer { lock.unlock() }
    let taken = events
    events.removeAll()
    return taken
  }
}
