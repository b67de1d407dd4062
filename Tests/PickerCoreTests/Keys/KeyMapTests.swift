import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Every mode's keys are data in one `KeyMap` type: handlers look keys up
/// in it, hints and help are made from it, and the config rebinds it.
@Suite struct KeyMapTests {
  @Test func designTableKeys() {
    let map = KeyMaps.standard.grid
    #expect(map.action(for: .char("j")) == .moveDown)
    #expect(map.action(for: .down) == .moveDown)
    #expect(map.action(for: .char("G")) == .last)
    #expect(map.action(for: .char(" ")) == .toggle)
    #expect(map.action(for: .enter) == .activate)
    #expect(map.action(for: .backspace) == .parent)
    #expect(map.action(for: .backTab) == .previousSource)
    #expect(map.action(for: .char("3")) == .source(2))
    #expect(map.action(for: .escape) == .back)
    #expect(map.action(for: .char("q")) == .quit)
    #expect(map.action(for: .ctrl("c")) == .cancel)
    #expect(map.action(for: .char("z")) == nil)
  }

  @Test func gridHintsAndHelpComeFromTheMap() {
    let map = KeyMaps.standard.grid
    #expect(map.hintLine == "Enter pick · Space select · Tab source · / search · ? help · Esc back")
    #expect(map.hintLine(replacing: [.activate: "load more"]).hasPrefix("Enter load more · "))
    let rows = map.gridHelpRows
    #expect(rows.contains { $0.keys == "1-9" })
    #expect(!rows.contains { $0.keys == "5" })
    #expect(rows.contains { $0.keys == "q Ctrl-C" && $0.help.contains("ask first with picks") })
    #expect(rows.contains { $0.keys == "Esc" && $0.help.hasPrefix("back (results") })
    // The digits are one row, and so is each group.
    #expect(rows.contains { $0.keys == "↑ k ↓ j ← h → l" && $0.help == "move" })
    #expect(rows.contains { $0.keys == "+ = -" && $0.help == "bigger / smaller thumbnails" })
  }

  @Test func modeHintsComeFromTheMaps() {
    let keys = KeyMaps.standard
    #expect(keys[TrayMode.self].hintLine == "← → move · Space/x remove · Enter pick · Esc back to the grid")
    #expect(keys[PreviewMode.self].hintLine == "←→ photo · +- zoom · Space select · Enter pick · i facts · Esc back")
    #expect(keys[SignInMode.self].hintLine == "Enter sign in · Tab next field · Esc back")
  }

  @Test func helpHasALineForEveryMode() {
    let rows = KeyMaps.standard.modeHelpRows
    #expect(rows.map(\.keys) == ["tray (t)", "prompts (/ :)", "preview (v)", "compare (c)", "sign-in form"])
    #expect(rows[0].help.contains("Space x Del Backspace remove"))
    #expect(rows[1].help.hasSuffix("other keys type"))
  }

  @Test func noKeyIsBoundTwiceInAMode() {
    let keys = KeyMaps.standard
    for bound in [
      keys.grid.bindings.flatMap(\.keys), keys[TrayMode.self].bindings.flatMap(\.keys),
      keys[SearchPrompt.self].bindings.flatMap(\.keys),
      keys[DatePrompt.self].bindings.flatMap(\.keys), keys[PreviewMode.self].bindings.flatMap(\.keys),
      keys[SignInMode.self].bindings.flatMap(\.keys), keys.tooSmall.bindings.flatMap(\.keys),
    ] {
      #expect(Set(bound).count == bound.count)
    }
  }

  @Test func everyActionHasAUniqueName() {
    let names = GridAction.bindable.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(names.contains("source-9") && names.contains("move-down"))
  }

  @Test func rebindingTakesTheKeysFromOtherActions() {
    var map = KeyMaps.standard.grid
    // j now pages down; it no longer moves down, which keeps ↓.
    map.rebind(.pageDown, to: [.char("j")])
    #expect(map.action(for: .char("j")) == .pageDown)
    #expect(map.keys(for: .moveDown) == [.down])
    #expect(map.action(for: .pageDown) == nil)
    // The hint names the new key.
    map.rebind(.activate, to: [.char("o")])
    #expect(map.hintLine.hasPrefix("o pick · "))
    // Unbound: gone from help and hints.
    map.rebind(.search, to: [])
    #expect(!map.hintLine.contains("search"))
    #expect(!map.gridHelpRows.contains { $0.help.contains("search in") })
  }

  @Test func keyNames() {
    #expect(KeyNames.key(named: "j") == .char("j"))
    #expect(KeyNames.key(named: "?") == .char("?"))
    #expect(KeyNames.key(named: "space") == .char(" "))
    #expect(KeyNames.key(named: "Enter") == .enter)
    #expect(KeyNames.key(named: "ctrl-a") == .ctrl("a"))
    #expect(KeyNames.key(named: "alt-x") == .alt("x"))
    #expect(KeyNames.key(named: "f12") == .function(12))
    #expect(KeyNames.key(named: "shift-tab") == .backTab)
    #expect(KeyNames.key(named: "ctrl-") == nil)
    #expect(KeyNames.key(named: "f13") == nil)
    #expect(KeyNames.key(named: "hyper-q") == nil)
  }

  @Test func theTrayFollowsItsMap() {
    var options = AppOptions()
    // Remove with d only: x no longer removes.
    options.keys[TrayMode.self].rebind(.remove, to: [.char("d")])
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char(" "), .right, .char(" "), .char("t"))
    #expect(state.top(TrayMode.self) == TrayMode(focus: 1))
    state.press(.char("x"))
    #expect(state.selection.count == 2)
    state.press(.char("d"))
    #expect(state.selection.count == 1)
  }

  @Test func theGridFollowsItsMap() {
    var options = AppOptions()
    options.keys = KeyMaps.standard(with: [KeyRebinding(mode: "grid", action: "toggle", keys: [.char("x")])])
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char(" "))
    #expect(state.selection.isEmpty)
    state.press(.char("x"))
    #expect(state.selection.count == 1)
  }

  @Test func theDownloadAndHelpKeysAreTheirMaps() {
    var options = AppOptions()
    options.keys[HelpMode.self].rebind(.cancel, to: [.char("Q")])
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char("?"))
    #expect((state.top(HelpMode.self) != nil))
    #expect(state.update(.key(.char("Q"))) == [.finish(.cancelled)])
  }

  @Test func theSearchPromptTypesWhatNoBindingTakes() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char("/"), .char("s"), .char("e"), .char("a"), .backspace, .char("x"))
    #expect(state.top(SearchPrompt.self)?.query == "sex")
    state.press(.ctrl("u"))
    #expect(state.top(SearchPrompt.self)?.query == "")
    state.press(.escape)
    #expect(state.isOnGrid)
  }
}
