import Foundation

/// Lets through at most about 20 progress reports a second: enough for a
/// bar, few enough that a fast transfer does not flood the UI with frames.
package final class ProgressThrottle: @unchecked Sendable {
  private var last: UInt64 = 0
  private let lock = NSLock()

  package init() {}

  package func shouldReport() -> Bool {
    let now = DispatchTime.now().uptimeNanoseconds
    return lock.withLock {
      guard now - last >= 50_000_000 else { return false }
      last = now
      return true
    }
  }
}
