/// What a key map's actions must say of themselves: the name the config's
/// `[keys]` section uses for each.
public protocol KeyCommand: Hashable, Sendable {
  /// The config's name of the action ("move-down").
  var name: String { get }
  /// Every action that can be bound, for looking a name up.
  static var bindable: [Self] { get }
  /// The culling command it is, if any: help folds their keys into one row.
  var cullingCommand: CullingCommand? { get }
}

extension KeyCommand {
  public var cullingCommand: CullingCommand? { nil }
}

/// The keys of one mode (the grid, the tray, the preview, a prompt…) as
/// data: the handler looks keys up here, and the `?` help and the hint line
/// are made from the same table, so they cannot drift apart, and the config
/// can rebind any action (`rebind`).
public struct KeyMap<Command: KeyCommand>: Hashable, Sendable {
  /// One row of the map: keys, what they do, and how help describes them.
  public struct Binding: Hashable, Sendable {
    public var keys: [Key]
    public var action: Command
    /// What help says the keys do.
    public var help: String
    /// The hint line's word for it ("pick"), shown after the first key.
    public var hint: String?
    /// How the hint line names the keys when not by the first one ("← →").
    public var hintKeys: String?
    /// Neighbouring bindings with the same group share one help row, which
    /// says this ("move" for the four arrows), so help fits on a screen.
    public var group: String?

    public init(
      _ keys: [Key], _ action: Command, help: String, hint: String? = nil, hintKeys: String? = nil,
      group: String? = nil
    ) {
      self.keys = keys
      self.action = action
      self.help = help
      self.hint = hint
      self.hintKeys = hintKeys
      self.group = group
    }

    /// The keys as help lists them ("↑ k").
    public var keyLabels: String { keys.map(\.label).joined(separator: " ") }

    /// "Enter pick", or nil when the binding has no hint, no key left, or
    /// an empty word (not to be hinted here).
    func hintText(saying word: String? = nil) -> String? {
      guard let word = word ?? hint, !word.isEmpty, let first = keys.first else { return nil }
      return "\(hintKeys ?? first.label) \(word)"
    }
  }

  /// How help names the mode ("tray (t)"); empty for the grid.
  public var title: String
  public var bindings: [Binding]
  /// Help's words for keys no binding takes (typed text), if they do anything.
  public var otherKeys: String?

  public init(title: String = "", bindings: [Binding], otherKeys: String? = nil) {
    self.title = title
    self.bindings = bindings
    self.otherKeys = otherKeys
  }

  /// The action bound to `key`, if any; earlier bindings win.
  public func action(for key: Key) -> Command? {
    bindings.first { $0.keys.contains(key) }?.action
  }

  /// The keys bound to `action` (empty when unbound).
  public func keys(for action: Command) -> [Key] {
    bindings.first { $0.action == action }?.keys ?? []
  }

  /// Binds `action` to exactly `keys` (none: unbound), taking them from any
  /// other action of this mode, so the new binding is never shadowed.
  public mutating func rebind(_ action: Command, to keys: [Key]) {
    // An action the table lists no row for (one the stack's Esc or Ctrl-C
    // stands for) gets a row of its own.
    if !keys.isEmpty, !bindings.contains(where: { $0.action == action }) {
      bindings.append(Binding([], action, help: action.name))
    }
    for index in bindings.indices {
      if bindings[index].action == action {
        bindings[index].keys = keys
        // The hint named the old keys.
        bindings[index].hintKeys = nil
      } else {
        let before = bindings[index].keys
        bindings[index].keys.removeAll { keys.contains($0) }
        if bindings[index].keys != before { bindings[index].hintKeys = nil }
      }
    }
  }

  /// The hint line: "Enter pick · Space select · Tab source".
  public var hintLine: String { hintLine(replacing: [:]) }

  /// The hint line with some actions' words replaced (Enter says "load
  /// more" on Load-more).
  public func hintLine(replacing words: [Command: String]) -> String {
    bindings.compactMap { $0.hintText(saying: words[$0.action]) }.joined(separator: " · ")
  }

  /// The help screen's rows, each group folded into one; bindings that
  /// `fold` names are folded into one row with its text ("1-9").
  public func helpRows(folding fold: (Command) -> (first: Bool, keys: String, help: String)? = { _ in nil })
    -> [(keys: String, help: String)]
  {
    var rows: [(keys: String, help: String)] = []
    var previousGroup: String?
    for binding in bindings where !binding.keys.isEmpty {
      defer { previousGroup = binding.group }
      // The culling keys are the grid's row (GridAction.gridHelpRows): the
      // preview's and compare's are the same, with 1-9 (README, usage.md).
      if let folded = fold(binding.action) ?? (binding.action.cullingCommand != nil ? (false, "", "") : nil) {
        if folded.first { rows.append((folded.keys, folded.help)) }
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

  /// Every culling key as one row, so help still fits a screen: "1-9
  /// Alt-0…9 X u  stars 0-5, labels 6-9, reject, undo", in the keys bound
  /// now (digits shown as ranges).
  func cullingFold(_ action: Command) -> (first: Bool, keys: String, help: String)? {
    guard action.cullingCommand != nil else { return nil }
    let culling = bindings.filter { $0.action.cullingCommand != nil && !$0.keys.isEmpty }
    let digits = culling.flatMap(\.keys).filter { key in
      switch key {
      case .char(let c), .alt(let c): return c.isNumber
      default: return false
      }
    }
    var labels: [String] = []
    if digits.contains(where: { if case .char = $0 { true } else { false } }) { labels.append("1-9") }
    if digits.contains(where: { if case .alt = $0 { true } else { false } }) { labels.append("Alt-0…9") }
    labels += culling.flatMap(\.keys).filter { !digits.contains($0) }.map(\.label)
    return (culling.first?.action == action, labels.joined(separator: " "), "stars 0-5, labels 6-9, reject, undo")
  }

  /// One line for the help screen: every binding, keys then what they do.
  public var helpLine: String {
    let rows = helpRows().map { "\($0.keys) \($0.help)" }
    return (rows + (otherKeys.map { [$0] } ?? [])).joined(separator: " · ")
  }
}
