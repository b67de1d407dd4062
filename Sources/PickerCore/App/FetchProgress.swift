/// Bytes of a fetch: received, and expected when the server said.
public struct FetchProgress: Hashable, Sendable {
  public var received: Int64
  public var expected: Int64?

  public init(received: Int64, expected: Int64?) {
    self.received = received
    self.expected = expected
  }
}
