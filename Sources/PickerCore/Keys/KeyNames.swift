/// Keys by the names the config file gives them: a single character
/// (`"j"`, `"?"`), or a name such as `enter`, `esc`, `space`, `ctrl-a`,
/// `alt-x`, `f1`, `pgdn`, `shift-tab`.
public enum KeyNames {
  static let named: [String: Key] = [
    "up": .up, "down": .down, "left": .left, "right": .right,
    "shift-up": .shiftUp, "shift-down": .shiftDown, "shift-left": .shiftLeft, "shift-right": .shiftRight,
    "pgup": .pageUp, "page-up": .pageUp, "pageup": .pageUp,
    "pgdn": .pageDown, "page-down": .pageDown, "pagedown": .pageDown,
    "home": .home, "end": .end, "enter": .enter, "return": .enter,
    "backspace": .backspace, "bs": .backspace, "delete": .delete, "del": .delete,
    "tab": .tab, "shift-tab": .backTab, "backtab": .backTab,
    "esc": .escape, "escape": .escape, "space": .char(" "),
  ]

  /// The key a name stands for, or nil when it names none.
  public static func key(named name: String) -> Key? {
    if name.count == 1, let c = name.first { return .char(c) }
    let lower = name.lowercased()
    if let key = named[lower] { return key }
    if lower.hasPrefix("ctrl-"), name.count == 6, let c = lower.last, c.isLetter { return .ctrl(c) }
    if lower.hasPrefix("alt-"), name.count == 5, let c = name.last { return .alt(c) }
    if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) { return .function(n) }
    return nil
  }

  /// Said when a name is not a key.
  public static let explanation =
    "a key is one character, or enter, esc, space, tab, shift-tab, backspace, del, up, down, left, right, "
    + "shift-up, shift-down, shift-left, shift-right, "
    + "home, end, pgup, pgdn, f1-f12, ctrl-a…ctrl-z, alt-<character>"
}
