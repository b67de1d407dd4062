import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Esc and Ctrl-C are bound once, by the stack (`[keys.modes]`): every mode
/// gets them on the action it names for them, help and hints show them
/// there, and the config moves them for all modes in one line.
@Suite struct StackKeysTests {
  static func started(_ rebindings: [KeyRebinding] = []) -> AppState {
    var options = AppOptions()
    options.keys = KeyMaps.standard(with: rebindings)
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    return state
  }

  @Test func noModeBindsEscOrCtrlCItself() {
    for mode in KeyMaps.standard.registry.modes {
      let keys = mode.standardKeysBound
      #expect(!keys.contains(.escape) && !keys.contains(.ctrl("c")), "\(mode.name)")
    }
  }

  @Test func eachModeGetsThemOnItsOwnAction() {
    let keys = KeyMaps.standard
    #expect(keys[PreviewMode.self].action(for: .escape) == .back)
    #expect(keys[PreviewMode.self].action(for: .ctrl("c")) == .cancel)
    #expect(keys[DownloadMode.self].keys(for: .cancelDownload) == [.escape, .char("q"), .ctrl("c")])
    #expect(keys[QuitConfirm.self].action(for: .escape) == .leave)
    #expect(keys[SearchPrompt.self].action(for: .escape) == .close)
    #expect(keys[TrayMode.self].hintLine.contains("Esc back to the grid"))
  }

  @Test func theConfigMovesThemForEveryModeAtOnce() {
    var state = Self.started([KeyRebinding(mode: "modes", action: "back", keys: [.ctrl("g")])])
    state.press(.char("v"))
    state.press(.escape)
    #expect(state.top(PreviewMode.self) != nil, "Esc is no longer back")
    state.press(.ctrl("g"))
    #expect(state.isOnGrid)
    state.press(.char("?"))
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("Ctrl-G v q back"))
    state.press(.char("x"))
    state.press(.char(" "), .char("t"), .ctrl("g"))
    #expect(state.isOnGrid && state.selection.count == 1)
  }

  /// A mode's table lists no row for Ctrl-C's action; the config can still
  /// bind it there.
  @Test func theConfigBindsMoreKeysToAModesCancel() {
    var state = Self.started([KeyRebinding(mode: "tray", action: "cancel", keys: [.char("x")])])
    state.press(.char(" "), .char("t"))
    #expect(state.options.keys[TrayMode.self].keys(for: .cancel) == [.char("x"), .ctrl("c")])
    #expect(state.press(.char("x")).outcome == .cancelled)
  }

  @Test func aKeyAModeBindsItselfStaysTheModes() {
    var state = Self.started([KeyRebinding(mode: "preview", action: "facts", keys: [.escape])])
    state.press(.char("v"), .escape)
    #expect(state.top(PreviewMode.self)?.showsFacts == true)
    #expect(state.options.keys[PreviewMode.self].keys(for: .back) == [.char("v"), .char("q")])
  }
}

extension ModeModel {
  /// Every key its own table binds, before the stack adds its two.
  static var standardKeysBound: [Key] { standardKeys.bindings.flatMap(\.keys) }
}
