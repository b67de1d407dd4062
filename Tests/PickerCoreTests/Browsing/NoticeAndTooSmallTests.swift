import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Edges a new user falls over: notes from a listing, keys while the
/// terminal is too small to show the grid.
@Suite struct NoticeAndTooSmallTests {
  @Test func aPageNoteIsShownOnceInTheFooter() {
    var (state, effects) = Fixture.started()
    let page = Page(items: Fixture.photos(1...3), hasMore: false, total: 3, note: "1 folder in the list skipped")
    _ = state.update(.pageLoaded(effects.loads[0], page))
    #expect(state.notice == Notice("1 folder in the list skipped"))
    state.press(.right)
    #expect(state.notice == nil)
  }

  @Test func keysOnPhotosDoNothingWhileTheTerminalIsTooSmall() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5), total: 5)
    _ = state.update(.resize(TerminalSize(width: 20, height: 8)))
    let effects2 = state.press(.right, .right, .char(" "), .enter)
    #expect(effects2.outcome == nil && state.selection.isEmpty && state.focusedTitle == "IMG_1.jpg")
    #expect(state.press(.char("q")).outcome == .cancelled)
  }
}
