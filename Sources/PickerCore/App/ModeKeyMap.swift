/// The keys of a mode other than the grid (the tray, the search prompt, the
/// preview, the sign-in form), kept as data like the grid's `KeyMap`: the
/// handler looks keys up here, and the `?` help and the hint line are made
/// from the same table.
public struct ModeKeyMap<Action: Hashable & Sendable>: Hashable, Sendable {
  public struct Binding: Hashable, Sendable {
    public var keys: [Key]
    public var action: Action
    /// What help says the keys do.
    public var help: String
    /// Shown as is in the hint line while the mode is on ("← → move").
    public var hint: String?

    public init(_ keys: [Key], _ action: Action, help: String, hint: String? = nil) {
      self.keys = keys
      self.action = action
      self.help = help
      self.hint = hint
    }
  }

  /// How help names the mode ("in the tray (t)").
  public var title: String
  public var bindings: [Binding]
  /// Help's words for keys no binding takes (typed text), if they do anything.
  public var otherKeys: String?

  public init(title: String, bindings: [Binding], otherKeys: String? = nil) {
    self.title = title
    self.bindings = bindings
    self.otherKeys = otherKeys
  }

  /// The action bound to `key`, if any; earlier bindings win.
  public func action(for key: Key) -> Action? {
    bindings.first { $0.keys.contains(key) }?.action
  }

  /// The hint line while the mode is on.
  public var hintLine: String { bindings.compactMap(\.hint).joined(separator: " · ") }

  /// One line for the help screen: every binding, keys then what they do.
  public var helpLine: String {
    let rows = bindings.map { "\($0.keys.map(\.label).joined(separator: " ")) \($0.help)" }
    return (rows + (otherKeys.map { [$0] } ?? [])).joined(separator: " · ")
  }
}

/// What a key does in the picked tray.
public enum TrayAction: Hashable, Sendable {
  case previous, next, first, last, remove, back, confirm, cancel
}

/// What a key does in the search prompt; other characters are typed.
public enum PromptAction: Hashable, Sendable {
  case close, cancel, clear, deleteBackward, submit
}

/// What a key does in the full-screen preview.
public enum PreviewAction: Hashable, Sendable {
  case previous, next, toggle, activate, facts, back, cancel
}

/// What a key does in a sign-in form; other characters are typed.
public enum FormAction: Hashable, Sendable {
  case back, cancel, nextField, previousField, deleteBackward, clear, submit
}

/// The key maps of every mode but the grid's.
public struct ModeKeys: Hashable, Sendable {
  public var tray: ModeKeyMap<TrayAction>
  public var search: ModeKeyMap<PromptAction>
  public var preview: ModeKeyMap<PreviewAction>
  public var signIn: ModeKeyMap<FormAction>

  /// Help's lines for the modes, each "title: keys …".
  public var helpRows: [(keys: String, help: String)] {
    [
      (tray.title, tray.helpLine), (search.title, search.helpLine), (preview.title, preview.helpLine),
      (signIn.title, signIn.helpLine),
    ]
  }

  public static let standard = ModeKeys(
    tray: ModeKeyMap(
      title: "tray (t)",
      bindings: [
        .init([.left, .char("h")], .previous, help: "previous", hint: "← → move"),
        .init([.right, .char("l")], .next, help: "next"),
        .init([.home], .first, help: "first"),
        .init([.end], .last, help: "last"),
        .init([.char(" "), .char("x"), .delete, .backspace], .remove, help: "remove", hint: "Space/x remove"),
        .init([.enter], .confirm, help: "pick", hint: "Enter pick"),
        .init([.escape, .char("t"), .up, .char("k")], .back, help: "back", hint: "Esc back to the grid"),
        .init([.char("q"), .ctrl("c")], .cancel, help: "cancel"),
      ]),
    search: ModeKeyMap(
      title: "search (/)",
      bindings: [
        .init([.enter], .submit, help: "search"),
        .init([.backspace], .deleteBackward, help: "delete"),
        .init([.ctrl("u")], .clear, help: "clear"),
        .init([.escape], .close, help: "close"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ],
      otherKeys: "other keys type"),
    preview: ModeKeyMap(
      title: "preview (v)",
      bindings: [
        .init([.left, .char("h")], .previous, help: "previous", hint: "←→ photo"),
        .init([.right, .char("l")], .next, help: "next"),
        .init([.char(" ")], .toggle, help: "select", hint: "Space select"),
        .init([.enter], .activate, help: "pick", hint: "Enter pick"),
        .init([.char("i")], .facts, help: "facts", hint: "i facts"),
        .init([.escape, .char("v"), .char("q")], .back, help: "back", hint: "Esc back"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ]),
    signIn: ModeKeyMap(
      title: "sign-in form",
      bindings: [
        .init([.enter], .submit, help: "next field, then sign in", hint: "Enter sign in"),
        .init([.tab, .down], .nextField, help: "next field", hint: "Tab next field"),
        .init([.backTab, .up], .previousField, help: "previous field"),
        .init([.backspace], .deleteBackward, help: "delete"),
        .init([.ctrl("u")], .clear, help: "clear"),
        .init([.escape], .back, help: "back", hint: "Esc back"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ],
      otherKeys: "other keys type"))
}
