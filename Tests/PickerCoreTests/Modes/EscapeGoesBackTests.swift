import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Esc goes back one level wherever it is pressed: out of a mode (a
/// prompt, the tray, help, the preview, compare) to the one below, out of
/// search results, an opened stack or a folder to the listing it came
/// from; only at a source's top does it cancel. The picks stay throughout.
@Suite struct EscapeGoesBackTests {
  static func started() -> AppState {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: [Fixture.folder("Trips")] + Fixture.photos(1...5))
    return state
  }

  @Test func escFromSearchResultsReturnsAndEnterPrintsThePicks() {
    var state = Self.started()
    state.press(.right, .char(" "))
    let search = state.press(.char("/"), .char("x"), .enter)
    _ = state.answerLoad(from: search, with: [Fixture.photo("x100v.jpg")])
    #expect(state.scope!.label == "search: x")
    state.press(.right, .char(" "))
    #expect(state.press(.escape).outcome == nil)
    #expect(state.scope!.kind == .root && state.isOnGrid)
    #expect(state.selection.photos.map(\.key.itemID) == ["IMG_1.jpg", "x100v.jpg"])
    #expect(state.press(.enter).outcome == .picked([PathBytes("/p/IMG_1.jpg"), PathBytes("/p/x100v.jpg")]))
  }

  @Test func escFromAFolderReturnsThenCancelsAtTheTop() {
    var state = Self.started()
    let open = state.press(.enter)
    _ = state.answerLoad(from: open, with: Fixture.photos(6...7))
    #expect(state.scope!.kind == .folder("Trips"))
    state.press(.right, .char(" "))
    #expect(state.press(.escape).outcome == nil)
    #expect(state.scope!.kind == .root && state.focusedTitle == "Trips" && state.selection.count == 1)
    // At the top with a pick, Esc asks once; a second Esc leaves.
    #expect(state.press(.escape).outcome == nil)
    #expect(state.top(QuitConfirm.self) != nil)
    #expect(state.press(.escape).outcome == .cancelled)
  }

  @Test func escFromAnOpenedStackReturnsToItsTile() {
    var state = StackedListingTests.started()
    state.press(.right, .right, .enter)
    guard case .stack = state.scope!.kind else {
      Issue.record("the stack did not open")
      return
    }
    #expect(state.press(.escape).outcome == nil)
    #expect(state.scope!.kind == .root && state.focusedTitle == "b3.jpg")
  }

  @Test func escFromEveryModeReturnsToTheGridItCameFrom() {
    var state = Self.started()
    let open = state.press(.enter)
    _ = state.answerLoad(from: open, with: Fixture.photos(6...9))
    state.press(.right, .char(" "), .right, .char(" "))
    let modes: [(Key, any ModeModel.Type)] = [
      (.char("/"), SearchPrompt.self), (.char("t"), TrayMode.self), (.char("?"), HelpMode.self),
      (.char("v"), PreviewMode.self), (.char("c"), CompareMode.self),
    ]
    for (key, type) in modes {
      state.press(key)
      #expect(state.topMode.map { Swift.type(of: $0) == type } == true, "\(key) opened \(type)")
      #expect(state.press(.escape).outcome == nil, "Esc in \(key)'s mode")
      #expect(state.isOnGrid && state.modes.isEmpty, "Esc left \(key)'s mode")
      // Still in the folder: leaving a mode never leaves the listing.
      #expect(state.scope!.kind == .folder("Trips"))
    }
    #expect(state.selection.count == 2)
  }

  @Test func escFromTheGoToDatePromptClosesIt() {
    var state = StackedListingTests.started()
    state.press(.char(":"), .char("2"))
    #expect(state.top(DatePrompt.self) == DatePrompt(query: "2"))
    #expect(state.press(.escape).outcome == nil)
    #expect(state.isOnGrid)
  }

  @Test func qAndCtrlCStillCancelFromBelowTheTop() {
    for key in [Key.char("q"), .ctrl("c")] {
      var state = Self.started()
      let open = state.press(.enter)
      _ = state.answerLoad(from: open, with: Fixture.photos(6...7))
      #expect(state.press(key).outcome == .cancelled)
    }
  }

  @Test func theHintSaysEscBackOnlyWhereItGoesBack() {
    var state = Self.started()
    #expect(!AppView.render(state, theme: .monochrome).plainText.contains("Esc back"))
    let open = state.press(.enter)
    _ = state.answerLoad(from: open, with: Fixture.photos(6...7))
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("Esc back"))
  }

  @Test func aModeOpenedOverAnotherReturnsToIt() {
    var state = Self.started()
    state.enter(PreviewMode(showsFacts: false))
    state.enter(HelpMode())
    state.press(.escape)
    #expect(state.top(PreviewMode.self) == PreviewMode(showsFacts: false))
    state.press(.escape)
    #expect(state.isOnGrid)
  }
}

/// An empty listing: its source's reason on screen, and Enter ends the run
/// as nothing to pick (exit 1) unless something is picked.
@Suite struct EmptyListingTests {
  @Test func enterOnAnEmptyListingEndsWithNothingToPick() {
    var (state, effects) = Fixture.started(sources: [Fixture.source(), Fixture.source("Other")])
    state.grid.keepsStartingSource = true
    _ = state.update(.pageLoaded(effects.loads[1], Page(items: Fixture.photos(1...2), hasMore: false)))
    _ = state.update(
      .pageLoaded(effects.loads[0], Page(items: [], hasMore: false, note: "No photos between 1 Jan 2030 and today")))
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("No photos between 1 Jan 2030 and today"))
    #expect(state.press(.enter).outcome == .nothingToPick)
  }

  @Test func enterOnAnEmptyListingPrintsWhatWasPickedElsewhere() {
    var (state, effects) = Fixture.started(sources: [Fixture.source(), Fixture.source("Other")])
    state.grid.keepsStartingSource = true
    _ = state.update(.pageLoaded(effects.loads[1], Page(items: Fixture.photos(1...2), hasMore: false)))
    _ = state.update(.pageLoaded(effects.loads[0], Page(items: [], hasMore: false)))
    state.press(.tab, .char(" "), .tab)
    #expect(state.grid.activeSource == 0 && state.selection.count == 1)
    #expect(state.press(.enter).outcome == .picked([PathBytes("/p/IMG_1.jpg")]))
  }
}
