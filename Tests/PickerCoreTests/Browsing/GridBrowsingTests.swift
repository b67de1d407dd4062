import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct GridBrowsingTests {
  @Test func startLoadsAWholeNumberOfRows() {
    let (_, effects) = Fixture.started()
    #expect(effects.loads.count == 1)
    #expect(effects.loads[0].request == PageRequest(offset: 0, limit: 48))
  }

  @Test func pageSizeOptionIsRoundedUpToRows() {
    let (_, effects) = Fixture.started(options: AppOptions(pageSize: 10))
    #expect(effects.loads[0].request.limit == 12)
  }

  @Test func arrowsMoveInTheGrid() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...20), total: 20)
    state.press(.right, .right, .down)
    #expect(state.focusedTitle == "IMG_9.jpg")
    state.press(.char("k"), .char("h"))
    #expect(state.focusedTitle == "IMG_2.jpg")
    state.press(.up, .left, .left)
    #expect(state.focusedTitle == "IMG_1.jpg")
    state.press(.char("G"))
    #expect(state.focusedTitle == "IMG_20.jpg")
    state.press(.char("g"))
    #expect(state.focusedTitle == "IMG_1.jpg")
    state.press(.pageDown)
    #expect(state.focusedTitle == "IMG_19.jpg")
  }

  @Test func downFromAboveAShortLastRowLandsOnTheLastCell() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...8))
    state.press(.right, .right, .right, .down)
    #expect(state.focusedTitle == "IMG_8.jpg")
    state.press(.down)
    #expect(state.focusedTitle == "IMG_8.jpg")
  }

  @Test func scrollingKeepsTheFocusOnScreen() {
    var (state, effects) = Fixture.started(options: AppOptions(pageSize: 60))
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...60), total: 60)
    state.press(.down, .down, .down)
    #expect(state.scope!.scrollRow == 1)
    state.press(.char("G"))
    #expect(state.scope!.scrollRow == 7)
    state.press(.char("g"))
    #expect(state.scope!.scrollRow == 0)
  }

  @Test func openingAFolderPushesAScopeWithBackAndComesBack() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: [Fixture.folder("Album")] + Fixture.photos(1...3))
    let open = state.press(.enter)
    #expect(open.loads.first?.scope == .folder("Album"))
    // The Back cell takes a slot of the first page.
    #expect(open.loads.first?.request.limit == 47)
    _ = state.answerLoad(from: open, with: Fixture.photos(7...9))
    #expect(state.scope!.cells.first == .back)
    // The focus starts on what was opened, not on Back.
    #expect(state.focusedTitle == "IMG_7.jpg")
    state.press(.right)
    #expect(state.focusedTitle == "IMG_8.jpg")
    state.press(.left, .left, .enter)
    #expect(state.grid.scopeStacks[0].count == 1 && state.focusedTitle == "Album")
    _ = state.press(.enter)
    state.press(.backspace)
    #expect(state.grid.scopeStacks[0].count == 1)
  }

  @Test func stalePagesAreDropped() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: [Fixture.folder("A"), Fixture.folder("B")])
    let openA = state.press(.enter)
    state.press(.backspace, .right)
    let openB = state.press(.enter)
    // A's page arrives after the user left A for B.
    _ = state.answerLoad(from: openA, with: Fixture.photos(1...2))
    #expect(state.scope!.items.isEmpty && state.scope!.kind == .folder("B"))
    _ = state.answerLoad(from: openB, with: Fixture.photos(5...5))
    #expect(state.scope!.items.map(\.id) == ["IMG_5.jpg"])
  }

  @Test func aFailedPageShowsTheErrorAndRetries() {
    var (state, effects) = Fixture.started()
    _ = state.update(.pageFailed(effects.loads[0], "cannot open /p: Permission denied"))
    #expect(state.notice == Notice("cannot open /p: Permission denied", isError: true))
    #expect(state.scope!.cells == [.loadMore])
    let retry = state.press(.enter)
    #expect(retry.loads.first?.request.offset == 0)
  }

  @Test func nothingToPickFinishesWithOne() {
    var (state, effects) = Fixture.started()
    let end = state.answerLoad(from: effects, with: [])
    #expect(end.outcome == .nothingToPick)
  }

  @Test func anEmptySourceBesideAFullOneKeepsRunning() {
    var (state, effects) = Fixture.started(sources: [Fixture.source("Files"), Fixture.source("Picked")])
    #expect(effects.loads.count == 2)
    let first = state.update(.pageLoaded(effects.loads[0], Page(items: [], hasMore: false)))
    let second = state.update(.pageLoaded(effects.loads[1], Page(items: Fixture.photos(1...1), hasMore: false)))
    #expect(first.outcome == nil && second.outcome == nil)
  }

  @Test func anEmptyStartingSourceGivesWayToOneWithPhotos() {
    var (state, effects) = Fixture.started(sources: [Fixture.source("Files"), Fixture.source("Picked")])
    state.grid.activeSource = 1
    _ = state.update(.pageLoaded(effects.loads[1], Page(items: [], hasMore: false)))
    #expect(state.grid.activeSource == 0)
    // Once the user has pressed a key, the picker no longer switches alone.
    var (touched, touchedEffects) = Fixture.started(sources: [Fixture.source("Files"), Fixture.source("Picked")])
    touched.grid.activeSource = 1
    touched.press(.char("j"))
    _ = touched.update(.pageLoaded(touchedEffects.loads[1], Page(items: [], hasMore: false)))
    #expect(touched.grid.activeSource == 1)
    // Nor when the user named the starting source.
    var chosen = Fixture.started(sources: [Fixture.source("Files"), Fixture.source("Picked")])
    chosen.0.grid.activeSource = 1
    chosen.0.grid.keepsStartingSource = true
    _ = chosen.0.update(.pageLoaded(chosen.1.loads[1], Page(items: [], hasMore: false)))
    #expect(chosen.0.grid.activeSource == 1)
  }

  @Test func sortCycleReloadsWithTheNewOrder() {
    var (state, effects) = Fixture.started(sources: [Fixture.source(capabilities: [.sorting])])
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    let reload = state.press(.char("s"))
    #expect(reload.loads.first?.request.sort == .date)
    #expect(state.scope!.items.isEmpty)
    // The old order's late page must not land in the new scope.
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    #expect(state.scope!.items.isEmpty)
  }

  @Test func sourcesSwitchAndKeepTheirPlace() {
    var (state, effects) = Fixture.started(sources: [Fixture.source("Files"), Fixture.source("Picked")])
    _ = state.update(.pageLoaded(effects.loads[0], Page(items: Fixture.photos(1...5), hasMore: false)))
    _ = state.update(.pageLoaded(effects.loads[1], Page(items: Fixture.photos(6...9), hasMore: false)))
    state.press(.right, .right)
    state.press(.tab)
    #expect(state.grid.activeSource == 1 && state.focusedTitle == "IMG_6.jpg")
    state.press(.char("1"))
    #expect(state.grid.activeSource == 0 && state.focusedTitle == "IMG_3.jpg")
    state.press(.backTab)
    #expect(state.grid.activeSource == 1)
  }

  @Test func searchNarrowsOnEveryKeyAndEnterKeepsTheResults() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    let typed = state.press(.char("/"), .char("b"))
    #expect(typed.loads.last?.scope == .search(query: "b", folder: nil))
    #expect(state.scope!.label == "search: b" && !state.isOnGrid)
    let more = state.press(.char("e"), .backspace, .char("x"))
    #expect(
      more.loads.map(\.scope) == [
        .search(query: "be", folder: nil), .search(query: "b", folder: nil), .search(query: "bx", folder: nil),
      ])
    #expect(state.top(SearchPrompt.self)?.query == "bx")
    // One results scope at a time, whatever was typed.
    #expect(state.grid.scopeStacks[0].count == 2)
    // Enter asks for nothing again: the results are there.
    #expect(state.press(.enter).loads.isEmpty)
    #expect(state.scope!.label == "search: bx" && state.isOnGrid)
    #expect(state.searchHistory == ["bx"])
    state.press(.backspace)
    #expect(state.scope!.kind == .root)
  }

  @Test func escInSearchPutsBackTheViewAndTheFocus() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...9))
    state.press(.right, .right)
    #expect(state.focusedTitle == "IMG_3.jpg")
    let typed = state.press(.char("/"), .char("i"), .char("m"))
    _ = state.answerLoad(from: typed, with: Fixture.photos(4...5))
    #expect(state.scope!.items.count == 2)
    state.press(.escape)
    #expect(state.isOnGrid && state.scope!.kind == .root && state.focusedTitle == "IMG_3.jpg")
    #expect(state.searchHistory.isEmpty)
  }

  @Test func escInSearchFromResultsBringsThemBack() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...9))
    let first = state.press(.char("/"), .char("a"), .enter)
    _ = state.answerLoad(from: first, with: Fixture.photos(1...4))
    state.press(.right)
    let typed = state.press(.char("/"), .char("z"))
    #expect(typed.loads.last?.scope == .search(query: "z", folder: nil))
    state.press(.escape)
    #expect(state.scope!.label == "search: a" && state.scope!.items.count == 4 && state.focusedTitle == "IMG_2.jpg")
    #expect(state.grid.scopeStacks[0].count == 2)
  }

  @Test func emptyingTheLineShowsWhatWasThere() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char("/"), .char("q"))
    #expect(state.scope!.label == "search: q")
    state.press(.backspace)
    #expect(state.scope!.kind == .root && state.top(SearchPrompt.self) != nil)
  }

  @Test func upRecallsEarlierSearches() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.searchHistory = ["lisbon", "beach"]
    state.press(.char("/"), .char("x"), .up)
    #expect(state.top(SearchPrompt.self)?.query == "beach")
    state.press(.up, .up)
    #expect(state.top(SearchPrompt.self)?.query == "lisbon")
    state.press(.down, .down)
    #expect(state.top(SearchPrompt.self)?.query == "x")
    state.press(.up, .enter)
    #expect(state.scope!.label == "search: beach")
    // Kept once, as the newest.
    #expect(state.searchHistory == ["lisbon", "beach"])
  }

  @Test func searchIsRefusedWhereTheSourceCannot() {
    var (state, _) = Fixture.started(sources: [Fixture.source(capabilities: [])])
    state.press(.char("/"))
    #expect(state.isOnGrid && state.notice?.text == "Files cannot search")
  }

  @Test func mouseClickFocusesAndDoubleClickOpens() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: [Fixture.folder("A")] + Fixture.photos(1...10))
    _ = state.update(.mouse(MouseEvent(kind: .click, x: 40, y: 14)))
    #expect(state.focusedTitle == "IMG_8.jpg")
    let open = state.update(.mouse(MouseEvent(kind: .doubleClick, x: 3, y: 3)))
    #expect(open.loads.first?.scope == .folder("A"))
    _ = state.update(.mouse(MouseEvent(kind: .click, x: 12, y: 0)))
    #expect(state.grid.activeSource == 0)
  }
}
