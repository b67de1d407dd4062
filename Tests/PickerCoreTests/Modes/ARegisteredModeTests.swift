import PickerCore
import Testing

/// A mode added from outside the picker through its public API only (no
/// `@testable`): one line registers it, and then a grid key opens it, the
/// config rebinds its keys and its opening key in `[keys.NAME]`, and help
/// lists both. What a real mode costs: its own file and that line.
struct StopwatchMode: ModeModel {
  var laps = 0

  enum Action: String, CaseIterable, KeyCommand {
    case lap, back
    var name: String { rawValue }
    static var bindable: [Self] { allCases }
  }

  static let name = "stopwatch"
  static let standardKeys = KeyMap<Action>(
    title: "stopwatch",
    bindings: [
      .init([.char("L")], .lap, help: "count a lap", hint: "lap")
    ])

  /// Esc is the stack's: named here, help and hints show it on `back`.
  static let backAction: Action? = .back

  static var opening: ModeOpening<Self>? {
    ModeOpening(keys: [.char("W")], help: "a stopwatch over the grid") { app in
      app.selection.isEmpty ? .refused(Notice("Pick a photo first: the stopwatch times picks")) : .mode(StopwatchMode())
    }
  }

  mutating func update(key: Key, action: Action?, app: AppState) -> ModeStep {
    switch action {
    case .lap?: laps += 1
    case .back?: return .leave
    case nil: break
    }
    return .stay
  }

  var placement: ModePlacement { .bottomLine }

  func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    _ = screen.put("Laps \(laps)", x: 0, y: screen.height - 1, style: .plain)
  }
}

@Suite struct ARegisteredModeTests {
  /// The picker's keys with the stopwatch registered: the one line.
  static func keys() -> KeyMaps {
    var keys = KeyMaps.standard
    keys.register(StopwatchMode.self)
    return keys
  }

  static func started(_ keys: KeyMaps) -> AppState {
    var options = AppOptions()
    options.keys = keys
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    return state
  }

  @Test func itsKeyOpensItFromTheGridOrSaysWhyNot() {
    var state = Self.started(Self.keys())
    state.press(.char("W"))
    #expect(state.isOnGrid && state.notice?.text == "Pick a photo first: the stopwatch times picks")
    state.press(.char(" "), .char("W"), .char("L"), .char("L"))
    #expect(state.top(StopwatchMode.self)?.laps == 2)
    #expect(AppView.render(state, theme: .monochrome).line(state.size.height - 1).hasPrefix("Laps 2"))
    state.press(.escape)
    #expect(state.isOnGrid && state.selection.count == 1)
  }

  @Test func theConfigRebindsItsKeysAndItsOpeningByItsName() throws {
    let config = try ConfigFile.parse(
      """
      [keys.stopwatch]
      open = "w"
      lap = ["space", "L"]
      """, path: "config.toml", keys: Self.keys())
    var state = Self.started(Self.keys().applying(config.keys))
    state.press(.char(" "), .char("W"))
    #expect(state.isOnGrid, "W no longer opens it")
    state.press(.char("w"), .char(" "), .char("L"))
    #expect(state.top(StopwatchMode.self)?.laps == 2)
    // Unregistered, the table is an error that names the modes there are.
    #expect(throws: ConfigFile.Error.self) {
      try ConfigFile.parse("[keys.stopwatch]\nopen = \"w\"\n", path: "config.toml")
    }
  }

  @Test func helpListsItsOpeningKeyAndItsOwnKeys() {
    var state = Self.started(Self.keys())
    state.press(.char("?"))
    var lines = AppView.render(state, theme: .monochrome).plainText.components(separatedBy: "\n")
    // The end of a help taller than the screen.
    state.press(.pageDown, .pageDown)
    lines += AppView.render(state, theme: .monochrome).plainText.components(separatedBy: "\n")
    #expect(lines.contains { $0.contains("W") && $0.contains("a stopwatch over the grid") })
    #expect(lines.contains { $0.contains("stopwatch") && $0.contains("L count a lap · Esc back") })
  }
}
