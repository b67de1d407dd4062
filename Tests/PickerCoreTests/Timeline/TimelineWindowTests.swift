import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A long timeline is shown through a window: End, a far date and Home move
/// it instead of loading every page between, and it grows at its top as
/// the user goes up.
@Suite struct TimelineWindowTests {
  static let total = 100_000
  static let perDay = 100
  static let newestDay = CivilDate(year: 2025, month: 6, day: 14).dayNumber

  /// Photo `i` of the listing (newest first), 100 a day.
  static func item(_ i: Int) -> PhotoItem {
    var item = Fixture.photo("p\(i).jpg")
    let day = newestDay - i / perDay
    item.taken = TakenDate(
      wallClock: Int64(day) * 86_400_000 + Int64(86_399 - i % perDay) * 1000, origin: .exif)
    return item
  }

  static var days: [DayCount] {
    (0..<(total / perDay)).map { DayCount(day: newestDay - $0, count: perDay) }
  }

  /// Answers the last load with the listing's slice it asks for.
  static func answer(_ state: inout AppState, _ effects: [Effect]) -> [Effect] {
    guard let load = effects.loads.last else { return [] }
    let end = min(total, load.request.offset + load.request.limit)
    var page = Page(
      items: (load.request.offset..<end).map(item), hasMore: end < total, total: total)
    if load.request.offset == 0 { page.days = days }
    return state.update(.pageLoaded(load, page))
  }

  static func started() -> AppState {
    var options = AppOptions()
    options.today = newestDay
    var (state, effects) = Fixture.started(
      sources: [Fixture.source("Photos", capabilities: [.paging, .search, .timeline])], options: options)
    _ = answer(&state, effects)
    return state
  }

  @Test func endMovesTheWindowToTheLastPage() {
    var state = Self.started()
    let effects = state.press(.end)
    let load = effects.loads.last!
    #expect(load.request.offset > Self.total - 200)
    _ = Self.answer(&state, effects)
    #expect(state.focusedTitle == "p99999.jpg")
    #expect(state.scope!.items.count < 200)
    let crumb = AppView.render(state, theme: .monochrome).plainText.components(separatedBy: "\n")[1]
    #expect(crumb.hasSuffix("–100000 of 100000"))
  }

  @Test func aFarDateMovesTheWindowAndUpGrowsItAtTheTop() {
    var state = Self.started()
    let target = CivilDate(dayNumber: Self.newestDay - 500)
    var effects = state.press(.char(":"))
    for c in target.iso { effects = state.press(.char(c)) }
    effects = state.press(.enter)
    #expect(effects.loads.last?.request.offset == 50_000)
    effects = Self.answer(&state, effects)
    #expect(state.focusedTitle == "p50000.jpg")
    #expect(state.scope?.baseOffset == 50_000)
    // Near the window's top the page before it is asked for.
    let newer = effects.loads.last { $0.request.offset < 50_000 }
    #expect(newer != nil && newer!.request.offset + newer!.request.limit == 50_000)
    _ = state.update(
      .pageLoaded(
        newer!, Page(items: (newer!.request.offset..<50_000).map(Self.item), hasMore: true, total: Self.total)))
    #expect(state.focusedTitle == "p50000.jpg")
    #expect(state.scope!.baseOffset == newer!.request.offset)
    // Up goes into the day before, in the same column of its last row.
    state.press(.up)
    let base = state.scope!.baseOffset
    let index = Int(state.focusedTitle!.dropFirst().dropLast(4))!
    #expect(index >= base && index < 50_000)
    #expect((index - base) % state.layout.columns == 0 && 50_000 - index <= state.layout.columns)
    // Home goes back to the listing's start.
    effects = state.press(.home)
    #expect(effects.loads.last?.request.offset == 0)
    _ = Self.answer(&state, effects)
    #expect(state.focusedTitle == "p0.jpg")
    #expect(state.scope?.baseOffset == 0)
  }

  @Test func nearJumpsStillLoadThePagesBetween() {
    var state = Self.started()
    // The next day starts at 100, past the first page: its pages are asked
    // for from where the window ends, which stays at 0.
    let effects = state.press(.char("}"))
    #expect(effects.loads.last?.request.offset == state.scope?.nextOffset)
    _ = Self.answer(&state, effects)
    #expect(state.focusedTitle == "p100.jpg")
    #expect(state.scope?.baseOffset == 0)
  }

  @Test func aChangeListedAgainInAMovedWindowKeepsItAndHomeStillGoesHome() {
    // The signatures of stacks come in while the window is at End: the
    // window is listed again where it is, and pages and Home go on.
    var state = Self.started()
    _ = Self.answer(&state, state.press(.end))
    #expect(state.focusedTitle == "p99999.jpg")
    let base = state.scope!.baseOffset
    let relist = state.update(.sourceChanged(sourceIndex: 0, .contentChanged))
    #expect(relist.loads.last?.request.offset == base)
    _ = Self.answer(&state, relist)
    #expect(state.scope!.relisting == false && state.scope!.loadingOffset == nil)
    #expect(state.focusedTitle == "p99999.jpg")
    // A change whose listing is still on its way when Home is pressed.
    _ = state.update(.sourceChanged(sourceIndex: 0, .contentChanged))
    let home = state.press(.home)
    #expect(home.loads.last?.request.offset == 0)
    _ = Self.answer(&state, home)
    #expect(state.focusedTitle == "p0.jpg")
    #expect(state.scope!.relisting == false && state.scope!.loadingOffset == nil)
  }

  /// Answers the last load from a listing of `total` photos.
  static func answer(_ state: inout AppState, _ effects: [Effect], total: Int) -> [Effect] {
    guard let load = effects.loads.last else { return [] }
    let end = min(total, load.request.offset + load.request.limit)
    var page = Page(items: (load.request.offset..<end).map(item), hasMore: end < total, total: total)
    if load.request.offset == 0 { page.days = days }
    return state.update(.pageLoaded(load, page))
  }

  /// End, then whatever arrives before Enter (a relist after the stacks'
  /// signatures, the start-up rescan growing the listing, a late page):
  /// the focus stays on the oldest photo, and Enter prints it.
  @Test func endKeepsItsTargetThroughRelistsRescansAndLatePages() {
    var state = Self.started()
    let end = state.press(.end)
    // A change and Enter both come before End's page: Enter waits for it.
    _ = state.update(.sourceChanged(sourceIndex: 0, .contentChanged))
    #expect(state.press(.enter).outcome == nil)
    #expect(!state.grid.typedAhead.isEmpty, "Enter waits while End is on its way")
    var effects = Self.answer(&state, end)
    #expect(state.focusedTitle == "p99999.jpg")
    // The typed-ahead Enter confirmed the oldest photo.
    let check = effects.lazy.compactMap { if case .checkPicked(let check) = $0 { check } else { nil } }.first
    #expect(check?.titles == [Array("p99999.jpg".utf8)])

    // The rescan found 150 more older photos: the relisted window grows,
    // and End's target moves on to the new oldest photo.
    state = Self.started()
    _ = Self.answer(&state, state.press(.end))
    effects = state.update(.sourceChanged(sourceIndex: 0, .contentChanged))
    for _ in 0..<5 where !effects.loads.isEmpty {
      effects = Self.answer(&state, effects, total: Self.total + 150)
    }
    #expect(state.focusedTitle == "p100149.jpg")
    // Another key lets go of End, and so does a mode (the preview steps
    // through photos).
    _ = state.press(.left)
    _ = state.update(.sourceChanged(sourceIndex: 0, .contentChanged))
    #expect(state.scope?.holdsEnd == false)
    state = Self.started()
    _ = Self.answer(&state, state.press(.end))
    #expect(state.scope?.holdsEnd == true && state.focusedTitle == "p99999.jpg" && !state.endInFlight)
    _ = state.press(.char("v"))
    #expect(state.scope?.holdsEnd == false)
  }
}
