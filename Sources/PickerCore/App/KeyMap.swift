/// Everything a key can ask the picker to do.
public enum Action: Hashable, Sendable {
  case moveUp, moveDown, moveLeft, moveRight
  case pageUp, pageDown, first, last
  case toggle, activate, parent
  case nextSource, previousSource
  case source(Int)
  case search, focusTray, bigger, smaller, cycleSort, signOut, help, cancel
  case preview
  case restorePicks
}

/// One row of the key map: keys, what they do, and how help describes them.
public struct KeyBinding: Hashable, Sendable {
  public var keys: [Key]
  public var action: Action
  public var help: String
  /// Shown in the hint line at the bottom, in this short form, when set.
  public var hint: String?
  /// Neighbouring bindings with the same group share one help row, which
  /// says this ("move" for the four arrows), so help fits on a screen.
  public var group: String?

  public init(_ keys: [Key], _ action: Action, help: String, hint: String? = nil, group: String? = nil) {
    self.keys = keys
    self.action = action
    self.help = help
    self.hint = hint
    self.group = group
  }

  /// The keys as help lists them ("↑ k").
  public var keyLabels: String { keys.map(\.label).joined(separator: " ") }
}

/// The grid's key bindings, kept as data so that the `?` help and the hint
/// line are generated from the same table the keys are looked up in.
public struct KeyMap: Hashable, Sendable {
  public var bindings: [KeyBinding]

  public init(bindings: [KeyBinding]) { self.bindings = bindings }

  /// The action bound to `key`, if any; earlier bindings win.
  public func action(for key: Key) -> Action? {
    bindings.first { $0.keys.contains(key) }?.action
  }

  public static let standard = KeyMap(
    bindings: [
      KeyBinding([.up, .char("k")], .moveUp, help: "move up", group: "move"),
      KeyBinding([.down, .char("j")], .moveDown, help: "move down", group: "move"),
      KeyBinding([.left, .char("h")], .moveLeft, help: "move left", group: "move"),
      KeyBinding([.right, .char("l")], .moveRight, help: "move right", group: "move"),
      KeyBinding([.pageUp], .pageUp, help: "page up", group: "page up / down"),
      KeyBinding([.pageDown], .pageDown, help: "page down", group: "page up / down"),
      KeyBinding([.home, .char("g")], .first, help: "first cell"),
      KeyBinding([.end, .char("G")], .last, help: "last cell (the real end when the size is known)"),
      KeyBinding(
        [.enter], .activate, help: "open folder, Back or Load-more; on a photo: confirm",
        hint: "pick"),
      KeyBinding([.char(" ")], .toggle, help: "select or unselect the photo", hint: "select"),
      KeyBinding([.backspace], .parent, help: "back to the parent folder"),
      KeyBinding([.tab], .nextSource, help: "next source", hint: "source", group: "next / previous source"),
      KeyBinding([.backTab], .previousSource, help: "previous source", group: "next / previous source"),
    ]
      + (1...9).map { n in
        KeyBinding([.char(Character(String(n)))], .source(n - 1), help: "source \(n)")
      }
      + [
        KeyBinding([.char("/")], .search, help: "search in the current source", hint: "search"),
        KeyBinding([.char("v")], .preview, help: "preview the photo full screen (its keys below)"),
        KeyBinding([.char("t")], .focusTray, help: "focus the picked tray (its keys below)"),
        KeyBinding([.char("+"), .char("=")], .bigger, help: "bigger thumbnails", group: "bigger / smaller thumbnails"),
        KeyBinding([.char("-")], .smaller, help: "smaller thumbnails", group: "bigger / smaller thumbnails"),
        KeyBinding([.char("s")], .cycleSort, help: "sort by name / date"),
        KeyBinding([.char("O")], .signOut, help: "sign out of this source (forgets its credentials)"),
        KeyBinding([.char("R")], .restorePicks, help: "restore the picks of an unfinished run (when offered)"),
        KeyBinding([.char("?"), .function(1)], .help, help: "this help", hint: "help"),
        KeyBinding([.escape, .char("q"), .ctrl("c")], .cancel, help: "cancel: print nothing"),
      ])

  /// The hint line: "Enter pick · Space select · Tab source · / search · ? help".
  public var hintLine: String { hintLine(activating: nil) }

  /// The hint line with Enter's hint saying what it does on the focused
  /// cell ("Enter load more" on Load-more).
  public func hintLine(activating: String?) -> String {
    bindings.compactMap { binding in
      let hint = binding.action == .activate ? activating ?? binding.hint : binding.hint
      return hint.map { "\(binding.keys[0].label) \($0)" }
    }.joined(separator: " · ")
  }

  /// The help screen's rows, with the digit bindings folded into one and
  /// each group into one.
  public var helpRows: [(keys: String, help: String)] {
    var rows: [(keys: String, help: String)] = []
    var previousGroup: String?
    for binding in bindings {
      defer { previousGroup = binding.group }
      if case .source(let n) = binding.action {
        if n == 0 { rows.append(("1-9", "n-th source")) }
        continue
      }
      if let group = binding.group, group == previousGroup, !rows.isEmpty {
        rows[rows.count - 1].keys += " " + binding.keyLabels
        continue
      }
      rows.append((binding.keyLabels, binding.group ?? binding.help))
    }
    return rows
  }
}
