/// A one-line message at the bottom; cleared by the next key.
public struct Notice: Hashable, Sendable {
  public var text: String
  public var isError: Bool
  /// A one-time hint (how to let pictures through tmux): the source's own
  /// news (indexing progress) goes before it.
  public var isHint: Bool

  public init(_ text: String, isError: Bool = false, isHint: Bool = false) {
    self.text = text
    self.isError = isError
    self.isHint = isHint
  }
}
