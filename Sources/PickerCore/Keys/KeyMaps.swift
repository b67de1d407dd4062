/// The key maps of every mode: the grid's, the one used while the terminal
/// is too small, and one per registered mode (`ModeRegistry`), looked up by
/// the mode's type (`keys[M.self]`). The config's `[keys]` and
/// `[keys.MODE]` tables change them (`KeyRebinding`).
public struct KeyMaps: Hashable, Sendable {
  public var grid: KeyMap<GridAction>
  public var tooSmall: KeyMap<TooSmallAction>
  /// Esc and Ctrl-C in every mode (`[keys.modes]`).
  public var stack: KeyMap<StackAction> = .stack
  /// The registered modes' maps, by the mode's name; a mode missing here
  /// has its standard keys.
  private var modes: [String: AnyHashableSendable] = [:]
  /// The modes there are (`register` adds one).
  public private(set) var registry = ModeRegistry.standard
  /// The grid keys that open a mode, by its name, where the config moved
  /// them (`[keys.NAME] open`); else its opening's own.
  private var openings: [String: [Key]] = [:]

  public init(grid: KeyMap<GridAction>, tooSmall: KeyMap<TooSmallAction>) {
    self.grid = grid
    self.tooSmall = tooSmall
  }

  /// A mode's keys, with the stack's Esc and Ctrl-C added where the mode
  /// names the actions they stand for.
  public subscript<Mode: ModeModel>(mode: Mode.Type) -> KeyMap<Mode.Action> {
    get { own(mode).merging(stack, back: Mode.backAction, cancel: Mode.cancelAction) }
    set { modes[Mode.name] = AnyHashableSendable(newValue) }
  }

  /// A mode's own keys, as its table and the config's say.
  private func own<Mode: ModeModel>(_ mode: Mode.Type) -> KeyMap<Mode.Action> {
    modes[Mode.name]?.base.base as? KeyMap<Mode.Action> ?? Mode.standardKeys
  }

  /// Help's lines for the modes other than the grid, each "title: keys …".
  public var modeHelpRows: [(keys: String, help: String)] {
    registry.modes.flatMap { $0.helpRows(self) }
  }

  /// A mode more: its `[keys.NAME]` table, help rows and opening key. Call
  /// before the config's rebindings are read, so they can name it.
  public mutating func register(_ mode: any ModeModel.Type) { registry.register(mode) }

  /// The grid keys that open `mode`.
  public func openingKeys(of mode: any ModeModel.Type) -> [Key] {
    openings[mode.name] ?? mode.standardOpeningKeys
  }

  /// The registered mode a grid key opens, if any.
  public func mode(openedBy key: Key) -> (any ModeModel.Type)? {
    registry.modes.first { openingKeys(of: $0).contains(key) }
  }

  /// Help's grid rows for the keys that open registered modes.
  public var openingHelpRows: [(keys: String, help: String)] {
    registry.modes.compactMap { mode in
      guard let help = mode.openingHelp else { return nil }
      let keys = openingKeys(of: mode)
      return keys.isEmpty ? nil : (keys.map(\.label).joined(separator: " "), help)
    }
  }

  public static let standard = KeyMaps(
    grid: .grid,
    tooSmall: KeyMap(
      title: "terminal too small",
      bindings: [
        .init([.escape, .char("q"), .ctrl("c")], .cancel, help: "cancel"),
        .init([.char("?"), .function(1)], .help, help: "help"),
      ]))

  /// Binds the action named `action` of the mode named `mode` to `keys`;
  /// the reason when the mode or the action has no such name.
  public mutating func rebind(mode: String, action: String, to keys: [Key]) -> String? {
    switch mode {
    case "grid": return grid.rebind(named: action, to: keys)
    case "too-small": return tooSmall.rebind(named: action, to: keys)
    case "modes": return stack.rebind(named: action, to: keys)
    default:
      guard let type = registry.mode(named: mode) else {
        return "no mode named \(mode) (modes: \(modeNames.joined(separator: ", ")))"
      }
      if action == "open", type.openingHelp != nil {
        openings[mode] = keys
        return nil
      }
      return rebind(type, action: action, to: keys)
    }
  }

  private mutating func rebind<Mode: ModeModel>(_ type: Mode.Type, action: String, to keys: [Key]) -> String? {
    var map = own(type)
    if let problem = map.rebind(named: action, to: keys) { return problem }
    self[type] = map
    return nil
  }

  /// The config's mode names: `[keys]` is the grid, `[keys.tray]` the tray.
  public var modeNames: [String] {
    ["grid", "modes"] + registry.modes.map { $0.name } + ["too-small"]
  }
}

extension KeyMap {
  /// Binds the action the config calls `name`; the reason when there is none.
  mutating func rebind(named name: String, to keys: [Key]) -> String? {
    guard let action = Command.bindable.first(where: { $0.name == name }) else {
      return "unknown action \(name) (actions: \(Command.bindable.map(\.name).joined(separator: ", ")))"
    }
    rebind(action, to: keys)
    return nil
  }
}

extension KeyMap where Command == PromptAction {
  /// A one-line prompt's keys (search, go to date): other characters type.
  static func prompt(title: String, submit: String, history: Bool = false) -> KeyMap<PromptAction> {
    let recall: [KeyMap<PromptAction>.Binding] =
      history
      ? [
        .init([.up], .older, help: "earlier search", group: "history"),
        .init([.down], .newer, help: "later search", group: "history"),
      ] : []
    return KeyMap(
      title: title,
      bindings: [
        .init([.enter], .submit, help: submit),
        .init([.backspace], .deleteBackward, help: "delete"),
        .init([.ctrl("u")], .clear, help: "clear"),
      ] + recall + [
        // Esc's row (`StackAction`), in a prompt's word for it.
        .init([], .close, help: "close")
      ],
      otherKeys: "other keys type")
  }
}
