import Foundation

/// A flag set from a cancellation handler and read by a transfer thread.
public final class CancellationFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  public init() {}
  public var isSet: Bool { lock.withLock { value } }
  public func set() { lock.withLock { value = true } }
}
