import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Days flow: short days share a row, each under its own header, shortened
/// to its tiles' width; a day that does not fit starts a row, one longer
/// than a row wraps; the top line names the day of a row whose header is
/// above the screen; the scale names every year and marks the focus.
@Suite struct FlowingDaysTests {
  /// Photos one a day, `perDay` each, newest first, from 14 Jun 2025 back.
  static func days(
    _ perDay: [Int], from start: CivilDate = CivilDate(year: 2025, month: 6, day: 14), prefix: String = "d"
  ) -> [PhotoItem] {
    var items: [PhotoItem] = []
    for (offset, count) in perDay.enumerated() {
      let day = CivilDate(dayNumber: start.dayNumber - offset)
      for n in 0..<count {
        var item = Fixture.photo("\(prefix)\(offset)-\(n).jpg")
        let noon = TakenDate.wallClock(day, hour: 12, minute: 0, second: 0)
        item.taken = TakenDate(wallClock: noon - Int64(n) * 1000, origin: .exif)
        items.append(item)
      }
    }
    return items
  }

  static func dayCounts(_ items: [PhotoItem]) -> [DayCount] {
    var counts: [DayCount] = []
    for item in items {
      let day = item.taken!.day
      if counts.last?.day == day {
        counts[counts.count - 1].count += 1
      } else {
        counts.append(DayCount(day: day, count: 1))
      }
    }
    return counts
  }

  static func timeline(_ items: [PhotoItem], size: TerminalSize = TerminalSize(width: 120, height: 40)) -> AppState {
    var options = AppOptions()
    options.today = CivilDate(year: 2025, month: 6, day: 20).dayNumber
    var (state, effects) = Fixture.started(
      sources: [Fixture.source("Photos", capabilities: [.paging, .search, .timeline])], options: options, size: size)
    var page = Page(items: items, hasMore: false, total: items.count)
    page.days = dayCounts(items)
    _ = state.update(.pageLoaded(effects.loads[0], page))
    return state
  }

  static func lines(_ state: AppState) -> [String] {
    AppView.render(state, theme: .monochrome).plainText.components(separatedBy: "\n")
  }

  @Test func oneTileDaysFillWholeRowsInDateOrder() {
    let state = Self.timeline(Self.days(Array(repeating: 1, count: 30)))
    let grid = state.gridRows
    let columns = state.layout.columns
    // Header line, full row of tiles, header line, full row, …
    for row in 0..<3 {
      #expect(grid.isHeader(row * 2))
      #expect(grid.cells(inRow: row * 2 + 1) == (row * columns)..<((row + 1) * columns))
      guard case .header(let labels)? = grid.row(row * 2) else { continue }
      #expect(labels.map(\.column) == Array(0..<columns))
      #expect(labels.allSatisfy { $0.span == 1 })
    }
    // Each header fits its one tile: the weekday and date, no count.
    let first = Self.lines(state)[2]
    #expect(first.hasPrefix(" Sat 14 Jun 2025  ") && first.contains(" Fri 13 Jun 2025 "))
    #expect(!first.contains("1 photo"))
  }

  @Test func aDayThatDoesNotFitStartsARowAndALongDayWraps() {
    // 6 columns at 120x40: 2 + 3 share a row; 4 does not fit beside them;
    // 9 wraps over two rows, its last three beside which 1 + 2 flow.
    let state = Self.timeline(Self.days([2, 3, 4, 9, 1, 2]))
    let grid = state.gridRows
    #expect(state.layout.columns == 6)
    #expect(grid.cells(inRow: 1) == 0..<5)
    #expect(grid.cells(inRow: 3) == 5..<9)
    #expect(grid.cells(inRow: 5) == 9..<15)
    // 9's last three photos, then the one-photo day and the two-photo day,
    // under a header line of their own.
    #expect(grid.isHeader(6) && grid.cells(inRow: 7) == 15..<21)
    guard case .header(let labels)? = grid.row(6) else { return }
    #expect(labels.map(\.column) == [3, 4])
    #expect(grid.day(ofCell: 15)?.isFirst == false && grid.day(ofCell: 18)?.isFirst == true)
  }

  @Test func headersShortenToTheirTilesWidth() {
    let day = DayCount(day: CivilDate(year: 2025, month: 6, day: 14).dayNumber, count: 23)
    #expect(DayHeaderText.fitting(day, width: 40) == "Sat 14 Jun 2025 · 23 photos")
    #expect(DayHeaderText.fitting(day, width: 20) == "Sat 14 Jun 2025")
    #expect(DayHeaderText.fitting(day, width: 12) == "14 Jun 2025")
    #expect(DayHeaderText.fitting(day, width: 7) == "14 Jun")
    #expect(DayHeaderText.fitting(day, width: 4) == "14 …")
    #expect(DayHeaderText.fitting(day, width: 60, continued: true) == "Sat 14 Jun 2025 · 23 photos (continued)")
  }

  /// The date, then the place, then the count: the count goes first, then
  /// places after the first, then the weekday and year.
  @Test func headersKeepThePlaceBeforeTheCount() {
    let day = DayCount(
      day: CivilDate(year: 2025, month: 6, day: 14).dayNumber, count: 23, places: ["Lisbon", "Sintra", "Cascais"])
    #expect(DayHeaderText.fitting(day, width: 60) == "Sat 14 Jun 2025 · Lisbon, Sintra, Cascais · 23 photos")
    #expect(DayHeaderText.fitting(day, width: 45) == "Sat 14 Jun 2025 · Lisbon, Sintra, Cascais")
    #expect(DayHeaderText.fitting(day, width: 33) == "Sat 14 Jun 2025 · Lisbon, Sintra")
    #expect(DayHeaderText.fitting(day, width: 26) == "Sat 14 Jun 2025 · Lisbon")
    #expect(DayHeaderText.fitting(day, width: 22) == "14 Jun 2025 · Lisbon")
    #expect(DayHeaderText.fitting(day, width: 16) == "14 Jun · Lisbon")
    #expect(DayHeaderText.fitting(day, width: 12) == "14 Jun 2025")
    // A continued day's top line says where.
    #expect(DayHeaderText.fitting(day, width: 60, continued: true) == "Sat 14 Jun 2025 · Lisbon (continued)")
  }

  /// A one-tile day in Lisbon names Lisbon in its one tile's width.
  @Test func aOneTileDayNamesItsPlace() {
    let day = DayCount(day: CivilDate(year: 2023, month: 6, day: 16).dayNumber, count: 1, places: ["Lisbon"])
    #expect(DayHeaderText.fitting(day, width: 17) == "16 Jun · Lisbon")
  }

  @Test func countsSayPhotosAndVideos() {
    let at = CivilDate(year: 2025, month: 6, day: 14).dayNumber
    #expect(DayHeaderText.countText(DayCount(day: at, count: 4, videos: 1)) == "3 photos, 1 video")
    #expect(DayHeaderText.countText(DayCount(day: at, count: 2, videos: 2)) == "2 videos")
    #expect(DayHeaderText.countText(DayCount(day: at, count: 1)) == "1 photo")
    #expect(
      DayHeaderText.fitting(DayCount(day: at, count: 4, videos: 1), width: 60) == "Sat 14 Jun 2025 · 3 photos, 1 video")
  }

  @Test func aResizeFlowsTheDaysAgain() {
    var state = Self.timeline(Self.days([2, 3, 4]))
    #expect(state.gridRows.cells(inRow: 1) == 0..<5)
    _ = state.update(.resize(TerminalSize(width: 80, height: 40)))
    // Three columns beside the scale: 3 no longer fits beside 2.
    #expect(state.layout.columns == 3)
    #expect(state.gridRows.cells(inRow: 1) == 0..<2 && state.gridRows.cells(inRow: 3) == 2..<5)
  }

  @Test func theTopLineNamesTheDayOfARowWhoseHeaderIsAbove() {
    var state = Self.timeline(Self.days([40, 3]), size: TerminalSize(width: 80, height: 24))
    #expect(Self.lines(state)[2].hasPrefix(" Sat 14 Jun 2025 · 40 photos"))
    state.press(.pageDown)
    let lines = Self.lines(state)
    #expect(lines[2].hasPrefix(" Sat 14 Jun 2025 · 40 photos (continued)"), "\(lines.joined(separator: "\n"))")
    // The focus stays on screen below it.
    let focusRow = state.gridRows.row(ofCell: state.scope!.focus)
    #expect(focusRow >= state.scope!.scrollRow)
    #expect(
      focusRow < state.scope!.scrollRow
        + state.gridRows.visibleRowCount(from: state.scope!.scrollRow, layout: state.layout))
  }

  @Test func everyYearHasALabelAndTheFocusIsAlwaysMarked() {
    // 300 photos in 2025, 2 in 2019: the 2019 photos are under one line's share.
    var items = Self.days(Array(repeating: 10, count: 30))
    items += Self.days([2], from: CivilDate(year: 2019, month: 3, day: 1), prefix: "old")
    var state = Self.timeline(items)
    let scale = { Self.lines(state)[2..<38].map { String($0.suffix(TimelineScaleView.width)) } }
    #expect(scale().contains(" 2019"))
    state.press(.end)
    #expect(state.focusedTitle == "old0-1.jpg")
    #expect(scale().contains("▶2019"), "\(state.scope!.focus) \(state.scope!.cellCount)")
    // A month with no line of its own is marked on the nearest line.
    state.press(.home)
    #expect(scale().first == "▶2025")
    state.press(.char("}"))
    #expect(scale().contains { $0.hasPrefix("▶") })
  }

  @Test func aFolderByDateCountsAStacksPhotosInItsHeader() {
    var state = StackedListingTests.started()
    let lines = Self.lines(state)
    #expect(lines.contains { $0.contains("Sat 14 Jun 2025 · 8 photos") })
    state.press(.char("S"))
    #expect(Self.lines(state).contains { $0.contains("Sat 14 Jun 2025 · 8 photos") })
  }

  /// A folder sorted by date gives no day counts: each day's header names
  /// the places its photos were read at, most photos first.
  @Test func aFolderByDateNamesItsDaysPlacesFromItsPhotos() {
    var items = Self.days([3, 1])
    for index in items.indices { items[index].placeName = index == 1 ? "Sintra" : "Lisbon" }
    var (state, effects) = Fixture.started(
      sources: [Fixture.source("Folders", capabilities: [.paging])], size: TerminalSize(width: 120, height: 40))
    state.scope?.groupsByDay = true
    _ = state.update(.pageLoaded(effects.loads[0], Page(items: items, hasMore: false, total: items.count)))
    let lines = Self.lines(state)
    #expect(lines.contains { $0.contains("Sat 14 Jun 2025 · Lisbon, Sintra · 3 photos") }, "\(lines)")
    #expect(lines.contains { $0.contains("13 Jun") && $0.contains("Lisbon") }, "\(lines)")
  }
}
