/// The key maps of every mode: the grid's, the one used while the terminal
/// is too small, and one per registered mode (`ModeRegistry`), looked up by
/// the mode's type (`keys[TrayMode.self]`). The config's `[keys]` and
/// `[keys.MODE]` tables change them (`KeyRebinding`).
public struct KeyMaps: Hashable, Sendable {
  public var grid: KeyMap<GridAction>
  public var tooSmall: KeyMap<TooSmallAction>
  /// The registered modes' maps, by the mode's name; a mode missing here
  /// has its standard keys.
  private var modes: [String: AnyKeyMap] = [:]

  public init(grid: KeyMap<GridAction>, tooSmall: KeyMap<TooSmallAction>) {
    self.grid = grid
    self.tooSmall = tooSmall
  }

  /// A mode's keys.
  public subscript<Mode: ModeModel>(mode: Mode.Type) -> KeyMap<Mode.Action> {
    get { modes[Mode.name]?.base as? KeyMap<Mode.Action> ?? Mode.standardKeys }
    set { modes[Mode.name] = AnyKeyMap(newValue) }
  }

  /// Help's lines for the modes other than the grid, each "title: keys …".
  public var modeHelpRows: [(keys: String, help: String)] {
    ModeRegistry.modes.flatMap { $0.helpRows(self) }
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
    default:
      guard let type = ModeRegistry.mode(named: mode) else {
        return "no mode named \(mode) (modes: \(Self.modeNames.joined(separator: ", ")))"
      }
      return rebind(type, action: action, to: keys)
    }
  }

  private mutating func rebind<Mode: ModeModel>(_ type: Mode.Type, action: String, to keys: [Key]) -> String? {
    var map = self[type]
    if let problem = map.rebind(named: action, to: keys) { return problem }
    self[type] = map
    return nil
  }

  /// The config's mode names: `[keys]` is the grid, `[keys.tray]` the tray.
  public static var modeNames: [String] {
    ["grid"] + ModeRegistry.modes.map { $0.name } + ["too-small"]
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

/// A key map of some mode's actions, kept with the others.
struct AnyKeyMap: Hashable, Sendable {
  let base: any Hashable & Sendable

  init<Command>(_ map: KeyMap<Command>) { base = map }

  static func == (lhs: AnyKeyMap, rhs: AnyKeyMap) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
  func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(base)) }
}

extension KeyMap where Command == PromptAction {
  /// A one-line prompt's keys (search, go to date): other characters type.
  static func prompt(title: String, submit: String) -> KeyMap<PromptAction> {
    KeyMap(
      title: title,
      bindings: [
        .init([.enter], .submit, help: submit),
        .init([.backspace], .deleteBackward, help: "delete"),
        .init([.ctrl("u")], .clear, help: "clear"),
        .init([.escape], .close, help: "close"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ],
      otherKeys: "other keys type")
  }
}
