/// A key press, as the terminal backend reports it.
public enum Key: Hashable, Sendable {
  case char(Character)
  /// Ctrl plus a letter, e.g. `.ctrl("c")`.
  case ctrl(Character)
  /// Alt (Meta) plus a character, sent as ESC and the character.
  case alt(Character)
  case up, down, left, right
  /// Arrows with Shift (`CSI 1 ; 2 A`): the preview's loupe pans a whole view.
  case shiftUp, shiftDown, shiftLeft, shiftRight
  case pageUp, pageDown, home, end
  case enter, backspace, delete, tab, backTab, escape
  case function(Int)

  /// How the help screen names the key.
  public var label: String {
    switch self {
    case .char(" "): return "Space"
    case .char(let c): return String(c)
    case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
    case .alt(let c): return "Alt-" + String(c)
    case .up: return "↑"
    case .down: return "↓"
    case .left: return "←"
    case .right: return "→"
    case .shiftUp: return "Shift-↑"
    case .shiftDown: return "Shift-↓"
    case .shiftLeft: return "Shift-←"
    case .shiftRight: return "Shift-→"
    case .pageUp: return "PgUp"
    case .pageDown: return "PgDn"
    case .home: return "Home"
    case .end: return "End"
    case .enter: return "Enter"
    case .backspace: return "Backspace"
    case .delete: return "Del"
    case .tab: return "Tab"
    case .backTab: return "Shift-Tab"
    case .escape: return "Esc"
    case .function(let n): return "F\(n)"
    }
  }
}

/// A mouse report, in screen coordinates.
public struct MouseEvent: Hashable, Sendable {
  /// `drag`: moved with the left button held (reported where the terminal
  /// tracks button motion).
  public enum Kind: Hashable, Sendable { case click, doubleClick, wheelUp, wheelDown, drag }
  public var kind: Kind
  public var x: Int
  public var y: Int

  public init(kind: Kind, x: Int, y: Int) {
    self.kind = kind
    self.x = x
    self.y = y
  }
}
