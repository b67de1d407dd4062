import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct SelectionAndTrayTests {
  @Test func spaceTogglesAndEnterConfirmsInPickOrder() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5))
    state.press(.right, .right, .char(" "), .left, .left, .char(" "), .right, .char(" "), .char(" "))
    #expect(state.selection.photos.map(\.key.itemID) == ["IMG_3.jpg", "IMG_1.jpg"])
    let end = state.press(.enter)
    #expect(end.outcome == .picked([PathBytes("/p/IMG_3.jpg"), PathBytes("/p/IMG_1.jpg")]))
  }

  @Test func enterWithNothingSelectedPicksTheFocusedPhoto() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5))
    let result3 = state.press(.right, .enter)
    #expect(result3.outcome == .picked([PathBytes("/p/IMG_2.jpg")]))
  }

  @Test func selectionSurvivesFoldersAndSources() {
    var (state, effects) = Fixture.started(sources: [Fixture.source("Files"), Fixture.source("Picked")])
    _ = state.update(
      .pageLoaded(effects.loads[0], Page(items: [Fixture.folder("A")] + Fixture.photos(1...2), hasMore: false)))
    _ = state.update(.pageLoaded(effects.loads[1], Page(items: [Fixture.photo("z.jpg", folder: "/q")], hasMore: false)))
    state.press(.right, .char(" "))
    state.press(.left)
    let open = state.press(.enter)
    _ = state.answerLoad(from: open, with: [Fixture.photo("deep.jpg", folder: "/p/A")])
    state.press(.right, .char(" "), .backspace, .tab, .char(" "))
    #expect(state.selection.count == 3)
    let result4 = state.press(.enter)
    #expect(result4.outcome == .picked(["/p/IMG_1.jpg", "/p/A/deep.jpg", "/q/z.jpg"].map(PathBytes.init)))
  }

  @Test func maxRefusesTheNextPick() {
    var (state, effects) = Fixture.started(options: AppOptions(limits: SelectionLimits(maximum: 2)))
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5))
    state.press(.char(" "), .right, .char(" "), .right, .char(" "))
    #expect(state.selection.count == 2)
    #expect(state.notice == Notice("At most 2 photos can be picked (--max 2)", isError: true))
  }

  @Test func minRefusesToConfirm() {
    var (state, effects) = Fixture.started(options: AppOptions(limits: SelectionLimits(minimum: 2)))
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5))
    let result5 = state.press(.enter)
    #expect(result5.outcome == nil)
    #expect(state.notice?.text == "Pick at least 2 photos (--min 2); 1 picked")
    state.press(.char(" "), .right, .char(" "))
    let result6 = state.press(.enter)
    #expect(result6.outcome == .picked(["/p/IMG_1.jpg", "/p/IMG_2.jpg"].map(PathBytes.init)))
  }

  @Test func missingAndFolderItemsCannotBePicked() {
    var (state, effects) = Fixture.started()
    var missing = Fixture.photo("gone.jpg")
    missing.isMissing = true
    _ = state.answerLoad(from: effects, with: [Fixture.folder("A"), missing])
    state.press(.char(" "))
    #expect(state.selection.isEmpty && state.notice?.text == "Space picks photos; Enter opens the folder")
    state.press(.right, .char(" "))
    #expect(state.selection.isEmpty && state.notice?.text == "gone.jpg is missing and cannot be picked")
    let result7 = state.press(.enter)
    #expect(result7.outcome == nil)
  }

  @Test func newlineInAPathNeedsPrint0() {
    for print0 in [false, true] {
      var (state, effects) = Fixture.started(options: AppOptions(print0: print0))
      _ = state.answerLoad(from: effects, with: [Fixture.photo("a\nb.jpg")])
      let end = state.press(.enter)
      if print0 {
        #expect(end.outcome == .picked([PathBytes("/p/a\nb.jpg")]))
      } else {
        #expect(end.outcome == nil)
        #expect(state.notice?.text.contains("-0 (--print0)") == true)
      }
    }
  }

  @Test func trayMovesAndRemoves() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...4))
    state.press(.char(" "), .right, .char(" "), .right, .char(" "))
    state.press(.char("t"))
    #expect(state.top(TrayMode.self) == TrayMode(focus: 2))
    state.press(.left, .left, .left, .char("x"))
    #expect(state.selection.photos.map(\.key.itemID) == ["IMG_2.jpg", "IMG_3.jpg"])
    #expect(state.top(TrayMode.self) == TrayMode(focus: 0))
    state.press(.right, .char(" "), .escape)
    #expect(state.isOnGrid && state.selection.count == 1)
    // Esc in the tray returned to the grid; it did not cancel.
    // At the top with a pick it asks once; the second Esc leaves.
    #expect(state.press(.escape).outcome == nil)
    let result8 = state.press(.escape)
    #expect(result8.outcome == .cancelled)
  }

  @Test func cancelKeys() {
    for key in [Key.escape, .char("q"), .ctrl("c")] {
      var (state, effects) = Fixture.started()
      _ = state.answerLoad(from: effects, with: Fixture.photos(1...2))
      state.press(.char(" "))
      // With a pick, Esc and q ask once first; Ctrl-C never asks.
      if key != .ctrl("c") { #expect(state.press(key).outcome == nil) }
      let result9 = state.press(key)
      #expect(result9.outcome == .cancelled)
    }
  }

  @Test func helpOpensScrollsAndAnyOtherKeyCloses() {
    var (state, _) = Fixture.started()
    state.press(.char("?"))
    #expect((state.top(HelpMode.self) != nil))
    // j and the arrows scroll (where help does not fit); others close it.
    state.press(.char("j"))
    #expect((state.top(HelpMode.self) != nil) && state.top(HelpMode.self)?.scroll == 1)
    let result10 = state.press(.char("x"))
    #expect(result10.isEmpty && state.isOnGrid)
  }

  @Test func thumbnailSizeSteps() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...30))
    state.press(.char("+"))
    #expect(state.layout.thumbnailWidth == 24 && state.layout.columns == 4)
    state.press(.char("-"), .char("-"), .char("-"), .char("-"))
    #expect(state.grid.sizeLevel == 0 && state.layout.columns == 11)
  }
}
