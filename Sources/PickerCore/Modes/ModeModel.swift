/// A mode over the grid (the tray, a prompt, help, the preview, compare, a
/// sign-in form, a download): its own state, keys, update and view, the
/// way a bubbletea program nests models. The app keeps what modes share
/// (sources, scopes, the selection, thumbnails) and a stack of modes; the
/// one on top gets the events, and Esc leaves it.
///
/// A new mode is a type conforming to this, in its own files, and one line
/// in `ModeRegistry.modes` (for its config name, key table and help row).
public protocol ModeModel: Hashable, Sendable {
  associatedtype Action: KeyCommand

  /// The config's name of its key table (`[keys.NAME]`).
  static var name: String { get }
  /// Its keys before the config rebinds them.
  static var standardKeys: KeyMap<Action> { get }
  /// Help's rows for it, "title: keys"; none for modes that need no help.
  static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)]

  /// A key: `action` is what the mode's key map binds it to, nil when it
  /// binds nothing (prompts type such keys).
  mutating func update(key: Key, action: Action?, app: inout AppState) -> ModeStep
  /// A click, a drag or the wheel.
  mutating func update(mouse: MouseEvent, app: inout AppState) -> ModeStep
  /// After every event while the mode is on top: what it needs read.
  func afterEvent(app: inout AppState) -> [Effect]
  /// The pictures it shows, most wanted first; nil: the grid's tiles.
  func wantedImages(app: AppState) -> [ImageRequest]?

  /// Where it draws.
  var placement: ModePlacement { get }
  func draw(app: AppState, theme: Theme, into screen: inout Screen)
}

/// Where a mode draws: the whole screen instead of the grid, a box over the
/// grid (pictures hidden, as some terminals draw them above text), or the
/// bottom line under the grid.
public enum ModePlacement: Hashable, Sendable {
  case fullScreen, overGrid, bottomLine
}

/// What a mode's update asks for: work to run, and whether the mode stays.
public struct ModeStep: Sendable {
  public var effects: [Effect]
  /// The mode is done: back to the one below.
  public var leaves: Bool

  public static let stay = ModeStep(effects: [], leaves: false)
  public static let leave = ModeStep(effects: [], leaves: true)
  public static func run(_ effects: [Effect]) -> ModeStep { ModeStep(effects: effects, leaves: false) }
  public static func leave(_ effects: [Effect]) -> ModeStep { ModeStep(effects: effects, leaves: true) }
  /// Ctrl-C and the like: the picker ends with nothing picked.
  public static let cancel = ModeStep(effects: [.finish(.cancelled)], leaves: false)
}

extension ModeModel {
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] {
    let map = keys[Self.self]
    return [(map.title, map.helpLine)]
  }
  public mutating func update(mouse: MouseEvent, app: inout AppState) -> ModeStep { .stay }
  public func afterEvent(app: inout AppState) -> [Effect] { [] }
  public func wantedImages(app: AppState) -> [ImageRequest]? { nil }
}
