/// A one-line message at the bottom; cleared by the next key.
public struct Notice: Hashable, Sendable {
  public var text: String
  public var isError: Bool

  public init(_ text: String, isError: Bool = false) {
    self.text = text
    self.isError = isError
  }
}
