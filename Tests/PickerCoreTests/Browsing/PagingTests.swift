import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Paging is not a chore: moving past the last row shows the next page,
/// End goes to the real end when the size is known, Load-more stays for the
/// mouse and for slow sources. (120x40: 6 columns, 3 rows, pages of 48.)
@Suite struct PagingTests {
  /// A first page of 48 from a source that does not say how many follow.
  private func firstPage(total: Int? = nil) -> AppState {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...48), total: total, hasMore: true)
    return state
  }

  @Test func theNextPageIsFetchedAheadAndShownWhenTheFocusMovesPastTheLastRow() {
    var state = firstPage()
    #expect(state.press(.down).loads.isEmpty, "moving within the first screens asks for nothing")
    let ahead = state.press(.down, .down, .down, .down)
    #expect(ahead.loads.first?.request == PageRequest(offset: 48, limit: 48))
    _ = state.answerLoad(from: ahead, with: Fixture.photos(49...96), hasMore: true)
    #expect(state.scope!.items.count == 48, "fetched ahead, not shown before it is needed")
    state.press(.down, .down)
    #expect(state.focusedTitle == "IMG_43.jpg")
    // Down from the last loaded row: the page fetched ahead is shown and
    // the focus goes straight down into it.
    state.press(.down)
    #expect(state.scope!.items.count == 96 && state.focusedTitle == "IMG_49.jpg")
    #expect(state.scope!.prefetched == nil)
  }

  @Test func movingOntoLoadMoreBeforeItsPageArrivesShowsThePageOnArrival() {
    var state = firstPage()
    let ahead = state.press(.down, .down, .down, .down, .down)
    state.press(.down, .down, .right, .right, .right, .right, .right, .right)
    #expect(state.scope!.cell(at: state.scope!.focus) == .loadMore)
    #expect(state.scope!.revealOnArrival, "the Load-more tile says Loading… while the page comes")
    _ = state.answerLoad(from: ahead, with: Fixture.photos(49...96), hasMore: true)
    #expect(state.scope!.items.count == 96 && state.focusedTitle == "IMG_49.jpg")
  }

  @Test func pageDownPastTheLastRowMovesAWholeScreenIntoTheNextPage() {
    var state = firstPage()
    let ahead = state.press(.pageDown, .pageDown)
    _ = state.answerLoad(from: ahead, with: Fixture.photos(49...96), hasMore: true)
    state.press(.pageDown)
    #expect(state.focusedTitle == "IMG_55.jpg", "three screens of 18 down from the first")
  }

  @Test func aPageThatSaysWhereTheNextStartsIsFollowed() {
    var (state, effects) = Fixture.started()
    var page = Page(items: Fixture.photos(1...48), hasMore: true)
    page.nextOffset = 60  // the source filtered out 12 on its side
    _ = state.update(.pageLoaded(effects.loads[0], page))
    let loads = (1...6).flatMap { _ in state.update(.key(.down)).loads }
    #expect(loads.first?.request == PageRequest(offset: 60, limit: 48))
  }

  @Test func aClickOnLoadMoreOnlyFocusesIt() {
    var state = firstPage()
    let ahead = state.press(.char("G"))
    _ = state.answerLoad(from: ahead, with: Fixture.photos(49...96), hasMore: true)
    // The Load-more tile is the last cell, row 8 col 0; End scrolled it on screen.
    let origin = state.layout.origin(row: 8, column: 0, scrollRow: state.scope!.scrollRow)
    _ = state.update(.mouse(MouseEvent(kind: .click, x: origin.x + 2, y: origin.y + 2)))
    #expect(state.scope!.cell(at: state.scope!.focus) == .loadMore && state.scope!.items.count == 48)
    _ = state.update(.mouse(MouseEvent(kind: .doubleClick, x: origin.x + 2, y: origin.y + 2)))
    #expect(state.scope!.items.count == 96)
  }

  @Test func endWithoutATotalGoesToTheLastLoadedPhotoWithLoadMoreInView() {
    var state = firstPage()
    state.press(.end)
    #expect(state.focusedTitle == "IMG_48.jpg")
    let rows = 9  // 48 photos and Load-more in 6 columns
    #expect(state.scope!.scrollRow == rows - state.layout.visibleRows, "the Load-more row is on screen")
  }

  @Test func endWithAKnownTotalWalksToTheRealEndInBigPages() {
    var state = firstPage(total: 20_000)
    let first = state.press(.char("G"))
    #expect(state.scope!.seeksEnd && state.focusedTitle == "IMG_48.jpg")
    #expect(first.loads.first?.request == PageRequest(offset: 48, limit: AppState.seekPageLimit))
    let second = state.answerLoad(from: first, with: Fixture.photos(49...10_048), total: 20_000, hasMore: true)
    // Shown as it comes: the focus follows, the breadcrumb counts.
    #expect(state.focusedTitle == "IMG_10048.jpg")
    #expect(second.loads.first?.request == PageRequest(offset: 10_048, limit: 9_952))
    let third = state.answerLoad(from: second, with: Fixture.photos(10_049...20_000), total: 20_000, hasMore: false)
    #expect(third.loads.isEmpty && !state.scope!.seeksEnd)
    #expect(state.focusedTitle == "IMG_20000.jpg" && state.scope!.cells.last == .item(19_999))
  }

  @Test func anotherKeyStopsTheWalkToTheEnd() {
    var state = firstPage(total: 20_000)
    let seek = state.press(.char("G"))
    state.press(.home)
    #expect(!state.scope!.seeksEnd && state.focusedTitle == "IMG_1.jpg")
    let after = state.answerLoad(from: seek, with: Fixture.photos(49...10_048), total: 20_000, hasMore: true)
    #expect(after.loads.isEmpty && state.scope!.items.count == 48 && state.focusedTitle == "IMG_1.jpg")
  }

  /// Sends `keys` at once, as a burst outrunning the listing; the pages
  /// asked for meanwhile are answered only after the last key, in order,
  /// each as it is asked for (from a listing of 20,000).
  private func burst(_ state: inout AppState, _ keys: [Key]) {
    var pending: [PageLoad] = []
    for key in keys { pending += state.update(.key(key)).loads }
    while !pending.isEmpty {
      let load = pending.removeFirst()
      let first = load.request.offset + 1
      let items = Fixture.photos(first...(first + load.request.limit - 1))
      pending += state.update(.pageLoaded(load, Page(items: items, hasMore: true))).loads
    }
  }

  @Test(arguments: [50, 200, 500]) func aBurstOfMovesPastThePagesStillLoadingIsNeverDropped(_ count: Int) {
    var state = firstPage()
    burst(&state, Array(repeating: .right, count: count) + [.char(" ")])
    #expect(state.focusedTitle == "IMG_\(count + 1).jpg")
    #expect(state.selection.photos.map { String(decoding: $0.title, as: UTF8.self) } == ["IMG_\(count + 1).jpg"])
  }

  @Test func pageDownsPastThePagesStillLoadingLandWhereThatManyScreensAre() {
    var state = firstPage()
    burst(&state, Array(repeating: .pageDown, count: 60))
    // 18 photos a screen (6 columns, 3 rows), from the first.
    #expect(state.focusedTitle == "IMG_\(1 + 60 * 18).jpg")
  }

  @Test func cancelActsAtOnceWhileKeysWaitForAPage() {
    var state = firstPage()
    var pending: [PageLoad] = []
    for key in Array(repeating: Key.right, count: 60) { pending += state.update(.key(key)).loads }
    #expect(state.scope!.revealOnArrival)
    // Escape still acts at once: the picker does not wait for the page.
    #expect(state.update(.key(.escape)).outcome == .cancelled)
  }

  @Test func theHintLineSaysWhatEnterDoesOnTheFocusedCell() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: [Fixture.folder("Album")] + Fixture.photos(1...3), hasMore: true)
    #expect(hint(state).hasPrefix("Enter open ·"))
    state.press(.right)
    #expect(hint(state).hasPrefix("Enter pick ·"))
    state.scope!.focus = state.scope!.loadMoreIndex
    #expect(hint(state).hasPrefix("Enter load more ·"))
    let open = state.press(.home, .enter)
    _ = state.answerLoad(from: open, with: Fixture.photos(7...9))
    state.press(.home)
    #expect(hint(state).hasPrefix("Enter back ·"))
  }

  @Test func theLoadingTileCountsWhatHasArrived() {
    var state = firstPage(total: 20_000)
    state.press(.char("G"))
    let text = AppView.render(state, theme: .colored).plainText
    #expect(text.contains("Loading…") && text.contains("48 of") && text.contains("20000"))
  }

  private func hint(_ state: AppState) -> String {
    AppView.render(state, theme: .colored).plainText.split(separator: "\n", omittingEmptySubsequences: false)
      .last.map(String.init) ?? ""
  }
}
