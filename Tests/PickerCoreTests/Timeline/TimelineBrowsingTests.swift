import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The timeline in the pure update/view: day headers, the date jumps and
/// the prompt, a listing read again as an index fills in.
@Suite struct TimelineBrowsingTests {
  static let photos: [(String, String)] = [
    ("a1", "2025-06-14 18:00"), ("a2", "2025-06-14 09:00"), ("b1", "2025-06-02 12:00"),
    ("c1", "2025-05-30 08:00"), ("c2", "2025-05-30 07:00"), ("c3", "2025-05-30 06:00"),
    ("c4", "2025-05-30 05:00"), ("c5", "2025-05-30 04:00"), ("c6", "2025-05-30 03:00"),
    ("c7", "2025-05-30 02:00"), ("d1", "2025-05-01 10:00"), ("e1", "2023-06-20 10:00"), ("f1", "2023-05-01 10:00"),
  ]

  static func item(_ name: String, _ when: String) -> PhotoItem {
    var item = Fixture.photo(name + ".jpg")
    let parts = when.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
    item.taken = TakenDate(
      wallClock: TakenDate.wallClock(
        CivilDate(year: parts[0], month: parts[1], day: parts[2]), hour: parts[3], minute: parts[4], second: 0),
      origin: .exif)
    return item
  }

  static var items: [PhotoItem] { photos.map { item($0.0, $0.1) } }

  static var days: [DayCount] { FlowingDaysTests.dayCounts(items) }

  /// A timeline at 120x40 (6 columns) with the first `loaded` photos in.
  static func started(loaded: Int = photos.count) -> (AppState, [Effect]) {
    var options = AppOptions()
    options.today = CivilDate(year: 2025, month: 6, day: 20).dayNumber
    var (state, effects) = Fixture.started(
      sources: [Fixture.source("Photos", capabilities: [.paging, .search, .timeline])], options: options)
    var page = Page(items: Array(items.prefix(loaded)), hasMore: loaded < photos.count, total: photos.count)
    page.days = days
    effects = state.update(.pageLoaded(effects.loads[0], page))
    return (state, effects)
  }

  func render(_ state: AppState) -> [String] {
    AppView.render(state, theme: .monochrome).plainText.components(separatedBy: "\n")
  }

  @Test func shortDaysFlowSideBySideEachUnderItsOwnHeader() {
    let (state, _) = Self.started()
    let lines = render(state)
    // 14 Jun (2 photos) and 2 Jun (1) share the first row; 30 May (7) does
    // not fit beside them and wraps; 1 May, 20 Jun 2023 and 1 May 2023
    // follow c7 on its row.
    #expect(lines[2].hasPrefix(" Sat 14 Jun 2025 · 2 photos"))
    #expect(lines[2].contains(" Mon 2 Jun 2025"))
    #expect(state.gridRows.row(ofCell: 2) == 1)
    let headerRows = lines.indices.filter { lines[$0].hasPrefix(" ") && lines[$0].contains(" 20") }
    #expect(headerRows.count == 3)
    #expect(lines[headerRows[1]].hasPrefix(" Fri 30 May 2025 · 7 photos"))
    // The third header line has no words over c7, the rest of 30 May.
    let third = lines[headerRows[2]]
    #expect(third.hasPrefix("   ") && third.contains("1 May 2025") && third.contains("20 Jun 2023"))
    #expect(third.contains("1 May 2023"))
    #expect(state.gridRows.row(ofCell: 9) == 5 && state.gridRows.row(ofCell: 12) == 5)
  }

  @Test func downKeepsTheColumnAcrossHeaderLines() {
    var (state, _) = Self.started()
    state.press(.char("]"))  // the start of May 2025: c1
    #expect(state.focusedTitle == "c1.jpg")
    // c7, d1, e1 and f1 share the row below c1…c6.
    state.press(.right, .right, .down)
    #expect(state.focusedTitle == "e1.jpg")
    state.press(.up)
    #expect(state.focusedTitle == "c3.jpg")
    state.press(.up)
    #expect(state.focusedTitle == "b1.jpg")
  }

  @Test func monthAndDayJumps() {
    var (state, _) = Self.started()
    state.press(.char("}"))
    #expect(state.focusedTitle == "b1.jpg")
    state.press(.char("}"))
    #expect(state.focusedTitle == "c1.jpg")
    state.press(.char("{"))
    #expect(state.focusedTitle == "b1.jpg")
    state.press(.char("]"))
    #expect(state.focusedTitle == "c1.jpg")
    state.press(.char("]"))
    #expect(state.focusedTitle == "e1.jpg")
    state.press(.char("]"))
    #expect(state.focusedTitle == "f1.jpg")
    state.press(.char("]"))
    #expect(state.focusedTitle == "f1.jpg")
    #expect(state.notice?.text == "This is the oldest month")
    state.press(.char("["))
    #expect(state.focusedTitle == "e1.jpg")
    state.press(.right, .char("["))  // mid-month: back to its start first
    state.press(.char("["))
    #expect(state.focusedTitle == "c1.jpg")
  }

  @Test func goToDateLandsOnTheNewestPhotoOfThePeriodOrTheNearestOlder() {
    var (state, _) = Self.started()
    state.press(.char(":"))
    #expect(state.top(DatePrompt.self) == DatePrompt(query: ""))
    for c in "2023-06" { state.press(.char(c)) }
    state.press(.enter)
    #expect(state.isOnGrid)
    #expect(state.focusedTitle == "e1.jpg")
    state.press(.char(":"))
    for c in "jan 2024" { state.press(.char(c)) }
    state.press(.enter)
    #expect(state.focusedTitle == "e1.jpg")
    #expect(state.notice?.text.hasPrefix("None then") == true)
    state.press(.char(":"))
    for c in "tomorrow" { state.press(.char(c)) }
    state.press(.enter)
    #expect(state.notice?.isError == true)
    state.press(.char(":"))
    for c in "yesterday" { state.press(.char(c)) }
    state.press(.enter)
    #expect(state.focusedTitle == "a1.jpg")
  }

  @Test func aJumpPastWhatIsLoadedAsksForThePagesUpToIt() {
    // Six photos take two rows: the next page is asked for at once.
    var (state, started) = Self.started(loaded: 6)
    let effects = state.press(.char(":"), .char("2"), .char("0"), .char("2"), .char("3"), .enter)
    let load = (started + effects).loads.last
    #expect(load?.request.offset == 6)
    #expect((load?.request.limit ?? 0) >= 12 - 6)
    #expect(state.scope?.seekItem == 11)
    let rest = Array(Self.items[6...])
    _ = state.update(.pageLoaded(load!, Page(items: rest, hasMore: false, total: 13)))
    #expect(state.focusedTitle == "e1.jpg")
    #expect(state.scope?.seekItem == nil)
  }

  @Test func jumpsOutsideADatedListingSaySo() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char("]"))
    #expect(state.notice?.text.contains("sorted by date") == true)
    state.press(.char(":"))
    #expect(state.isOnGrid)
  }

  @Test func anIndexFillingInIsListedAgainKeepingTheFocus() {
    var (state, _) = Self.started(loaded: 13)
    state.press(.char("}"))
    #expect(state.focusedTitle == "b1.jpg")
    _ = state.update(.sourceChanged(sourceIndex: 0, .status("Indexing 20 of ~40 · 100/s")))
    #expect(render(state).last?.hasPrefix("Indexing 20 of ~40") == true)
    let effects = state.update(.sourceChanged(sourceIndex: 0, .contentChanged))
    let load = effects.loads.last!
    #expect(load.request.offset == 0 && load.request.limit >= 13)
    // What was shown stays until the new listing is in.
    #expect(state.scope?.items.count == 13)
    var newer = [Self.item("new", "2025-06-15 10:00")] + Self.items
    var page = Page(items: newer, hasMore: false, total: 14)
    page.days = [DayCount(day: newer[0].taken!.day, count: 1)] + Self.days
    _ = state.update(.pageLoaded(load, page))
    #expect(state.scope?.items.count == 14)
    #expect(state.focusedTitle == "b1.jpg")
    newer.removeAll()
  }

  @Test func searchResultsInTheTimelineKeepDayHeaders() {
    var (state, _) = Self.started()
    let effects = state.press(.char("/"), .char("c"), .enter)
    let load = effects.loads.last!
    var page = Page(items: Array(Self.items[3...9]), hasMore: false, total: 7)
    page.days = [DayCount(day: Self.items[3].taken!.day, count: 7)]
    _ = state.update(.pageLoaded(load, page))
    // The focus starts on the first result; Home goes to Back, on a row
    // of its own, then the day.
    #expect(state.scope?.focus == 1)
    state.press(.home)
    let lines = render(state)
    #expect(lines[2].hasPrefix("┏") && lines[11].contains("Back"))
    #expect(lines[13].hasPrefix(" Fri 30 May 2025 · 7 photos"))
  }

  @Test func theScaleNamesYearsAndMonthsAndAClickJumps() {
    var (state, _) = Self.started()
    let lines = render(state)
    let scale = lines[2..<38].map { String($0.suffix(TimelineScaleView.width)) }
    #expect(scale.first == "▶2025")
    #expect(scale.contains(" 2023"))
    #expect(scale.contains("  May"))
    // The grid leaves the scale its columns: six tiles end at 113.
    #expect(
      lines[2..<38].allSatisfy { line in
        line.count <= 113 || line.dropFirst(113).dropLast(TimelineScaleView.width).allSatisfy { $0 == " " }
      })
    let line = scale.firstIndex(of: " 2023")!
    _ = state.update(.mouse(MouseEvent(kind: .click, x: 117, y: 2 + line)))
    #expect(state.focusedTitle == "e1.jpg")
    #expect(render(state)[2 + line].hasSuffix("▶2023"))
  }

  @Test func photosShownAgainAreRescanned() {
    var options = AppOptions()
    options.today = CivilDate(year: 2025, month: 6, day: 20).dayNumber
    var (state, _) = Fixture.started(
      sources: [Fixture.source("Photos", capabilities: [.paging, .timeline]), Fixture.source("Folders")],
      options: options)
    #expect(!state.press(.tab).contains(.refresh(sourceIndex: 0)))
    #expect(state.press(.tab).contains(.refresh(sourceIndex: 0)))
    // Already on it: nothing to look for.
    #expect(!state.press(.char("1")).contains(.refresh(sourceIndex: 0)))
  }

  @Test func draggingAlongTheScaleScrubsTheMonths() {
    var (state, _) = Self.started()
    let lines = render(state)
    let scale = lines[2..<38].map { String($0.suffix(TimelineScaleView.width)) }
    let line = scale.firstIndex(of: " 2023")!
    _ = state.update(.mouse(MouseEvent(kind: .drag, x: 118, y: 2 + line)))
    #expect(state.focusedTitle == "e1.jpg")
    _ = state.update(.mouse(MouseEvent(kind: .drag, x: 118, y: 2)))
    #expect(state.focusedTitle == "a1.jpg")
    // A drag over the tiles does nothing.
    _ = state.update(.mouse(MouseEvent(kind: .drag, x: 5, y: 20)))
    #expect(state.focusedTitle == "a1.jpg")
  }
}
