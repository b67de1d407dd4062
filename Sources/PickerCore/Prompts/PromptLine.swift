/// A one-line prompt's text and the keys that edit it, shared by search
/// (`/`) and go to date (`:`), which differ only in what Enter does.
public struct PromptLine: Hashable, Sendable {
  /// What is typed so far.
  public var text = ""

  public init(_ text: String = "") { self.text = text }

  /// Applies an editing key: typing, delete, clear; Esc leaves the prompt
  /// and Ctrl-C cancels the picker. Nil for Enter: the prompt's own to act on.
  mutating func edit(_ key: Key, action: PromptAction?) -> ModeStep? {
    switch action {
    case nil:
      if case .char(let c) = key { text.append(c) }
    case .close?: return .leave
    case .cancel?: return .cancel
    case .clear?: text = ""
    case .deleteBackward?: text = String(text.dropLast())
    case .submit?: return nil
    // Only search keeps a history.
    case .older?, .newer?: break
    }
    return .stay
  }
}
