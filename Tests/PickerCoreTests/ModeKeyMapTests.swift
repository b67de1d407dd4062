import Testing

@testable import PickerCore

/// The tray, search, preview and sign-in keys are data: handlers look keys
/// up in them, and hints and help are made from them.
@Suite struct ModeKeyMapTests {
  @Test func hintsComeFromTheMaps() {
    let keys = ModeKeys.standard
    #expect(keys.tray.hintLine == "← → move · Space/x remove · Enter pick · Esc back to the grid")
    #expect(keys.preview.hintLine == "←→ photo · Space select · Enter pick · i facts · Esc back")
    #expect(keys.signIn.hintLine == "Enter sign in · Tab next field · Esc back")
  }

  @Test func helpHasALineForEveryMode() {
    let rows = ModeKeys.standard.helpRows
    #expect(rows.map(\.keys) == ["tray (t)", "search (/)", "preview (v)", "sign-in form"])
    #expect(rows[0].help.contains("Space x Del Backspace remove"))
    #expect(rows[1].help.hasSuffix("other keys type"))
  }

  @Test func noKeyIsBoundTwiceInAMode() {
    let keys = ModeKeys.standard
    for bound in [
      keys.tray.bindings.flatMap(\.keys), keys.search.bindings.flatMap(\.keys),
      keys.preview.bindings.flatMap(\.keys), keys.signIn.bindings.flatMap(\.keys),
    ] {
      #expect(Set(bound).count == bound.count)
    }
  }

  @Test func theTrayFollowsItsMap() {
    var options = AppOptions()
    // Remove with d only: x no longer removes.
    options.modeKeys.tray.bindings = options.modeKeys.tray.bindings.map { binding in
      var binding = binding
      if binding.action == .remove { binding.keys = [.char("d")] }
      return binding
    }
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char(" "), .right, .char(" "), .char("t"))
    #expect(state.mode == .tray(focus: 1))
    state.press(.char("x"))
    #expect(state.selection.count == 2)
    state.press(.char("d"))
    #expect(state.selection.count == 1)
  }

  @Test func theSearchPromptTypesWhatNoBindingTakes() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char("/"), .char("s"), .char("e"), .char("a"), .backspace, .char("x"))
    #expect(state.mode == .search(query: "sex"))
    state.press(.ctrl("u"))
    #expect(state.mode == .search(query: ""))
    state.press(.escape)
    #expect(state.mode == .grid)
  }
}
