/// The date jumps of a listing in date order (the timeline, a folder
/// sorted by date taken): by month and by day with `]` `[` `}` `{`, and to
/// a typed date with `:`. Targets are found in the whole listing's day
/// counts when the source gave them, so a jump past what is loaded asks
/// for the pages up to it and lands when they are in.
extension AppState {
  /// The days of the listing on screen, newest first, with the listing
  /// offset of each day's first item.
  func dayStarts(of scope: Scope) -> [(day: Int, first: Int)] {
    if let days = scope.days {
      var first = 0
      return days.map { day in
        defer { first += day.count }
        return (day.day, first)
      }
    }
    return scope.sections.compactMap { section in section.day.map { ($0, scope.listingOffset(ofItem: section.start)) } }
  }

  /// The item under the focus, by index in `scope.items`.
  private func focusedItemIndex(in scope: Scope) -> Int? {
    guard case .item(let index)? = scope.cell(at: scope.focus) else { return nil }
    return index
  }

  mutating func jump(_ action: GridAction) -> [Effect] {
    guard let scope, scope.groupsByDay else {
      notice = Notice("Date jumps work in Photos and in folders sorted by date taken (s)")
      return []
    }
    let starts = dayStarts(of: scope)
    guard let focused = focusedItemIndex(in: scope), let current = scope.items[focused].taken?.day else { return [] }
    let index = scope.listingOffset(ofItem: focused)
    guard let position = starts.lastIndex(where: { $0.first <= index }) else { return [] }
    // Forward jumps go from the entry's last photo: a stack taken across
    // midnight holds the next day's first photos, and landing there again
    // would not move.
    let last = scope.listingOffset(ofItem: focused + 1) - 1
    let lastPosition = starts.lastIndex(where: { $0.first <= last }) ?? position
    let month = CivilDate(dayNumber: current).monthNumber
    func monthOf(_ day: Int) -> Int { CivilDate(dayNumber: day).monthNumber }
    var target: Int?
    switch action {
    case .nextDay:
      target = starts.indices.contains(lastPosition + 1) ? starts[lastPosition + 1].first : nil
    case .previousDay:
      // To the start of this day first, as a player's "previous" does.
      target = index > starts[position].first ? starts[position].first : position > 0 ? starts[position - 1].first : nil
    case .nextMonth:
      target = starts[(lastPosition + 1)...].first { monthOf($0.day) < month }?.first
    case .previousMonth:
      // Days are newest first, so a month's first day in the list is its
      // newest: where the month starts.
      let thisMonthStart = starts.first { monthOf($0.day) == month }?.first ?? index
      if index > thisMonthStart {
        target = thisMonthStart
      } else if let newer = starts[..<position].last(where: { monthOf($0.day) > month }) {
        let newerMonth = monthOf(newer.day)
        target = starts.first { monthOf($0.day) == newerMonth }?.first
      }
    default:
      break
    }
    guard let target else {
      notice = Notice(
        action == .nextDay || action == .nextMonth
          ? "This is the oldest \(action == .nextDay ? "day" : "month")"
          : "This is the newest \(action == .previousDay ? "day" : "month")")
      return []
    }
    return land(onItem: target)
  }

  /// `:`'s prompt was confirmed: the newest photo of the period typed, or
  /// the nearest older one when it has none.
  mutating func goToDate(_ text: String, today: Int) -> [Effect] {
    guard let scope, scope.groupsByDay else { return [] }
    guard let period = DateQuery.parse(text, today: today) else {
      notice = Notice(
        "Not a date: \(Sanitizer.sanitize(Array(text.utf8))) (try 2023, 2023-06, 2023-06-14, jun 2023, yesterday)",
        isError: true)
      return []
    }
    let starts = dayStarts(of: scope)
    guard let landing = starts.first(where: { $0.day <= period.upperBound }) else {
      notice = Notice("No photos on or before \(CivilDate(dayNumber: period.upperBound).label)")
      return starts.isEmpty ? [] : land(onItem: starts[starts.count - 1].first)
    }
    if landing.day < period.lowerBound {
      notice = Notice("None then: the nearest older photos, \(CivilDate(dayNumber: landing.day).label)")
    }
    return land(onItem: landing.first)
  }

  /// A jump this far past the window moves the window instead of loading
  /// every page between.
  static let windowJumpLimit = 2_000

  /// Focuses the item at listing offset `target`, its day's header at the
  /// top of the screen; when it is not loaded yet, the pages up to it are
  /// asked for first, or, far away, the window moves there.
  mutating func land(onItem target: Int) -> [Effect] {
    guard var scope else { return [] }
    scope.seeksEnd = false
    if target < scope.baseOffset || target - scope.nextOffset > Self.windowJumpLimit, scope.days != nil {
      // Far away: a window of its own, starting at the target (a day's
      // first photo, or End's last page).
      scope.moveWindow(to: target, generation: grid.takeGeneration())
      scope.seekItem = target
      self.scope = scope
      return loadNextPage(sourceIndex: grid.activeSource)
    }
    if let index = scope.itemIndex(atListingOffset: target) {
      scope.seekItem = nil
      scope.focus = index + (scope.isRoot ? 0 : 1)
      let rowsShown = GridRows(scope: scope, columns: layout.columns)
      let row = rowsShown.row(ofCell: scope.focus)
      scope.scrollRow = rowsShown.topRow(showingHeaderOf: row)
      self.scope = scope
      return []
    }
    scope.seekItem = target
    _ = scope.revealPrefetched()
    self.scope = scope
    if scope.itemIndex(atListingOffset: target) != nil { return land(onItem: target) }
    return scope.canRequestPage && scope.hasMore ? loadNextPage(sourceIndex: grid.activeSource) : []
  }

  /// The page before the window, asked for as the focus nears its top.
  mutating func loadNewerPage(sourceIndex: Int) -> [Effect] {
    guard var scope = grid.scopeStacks[sourceIndex].last, scope.hasNewer, scope.loadingNewerOffset == nil else {
      return []
    }
    let pageSize = layout.pageSize(requested: options.pageSize)
    let offset = max(0, scope.baseOffset - pageSize)
    scope.loadingNewerOffset = offset
    grid.scopeStacks[sourceIndex][grid.scopeStacks[sourceIndex].count - 1] = scope
    let request = PageRequest(offset: offset, limit: scope.baseOffset - offset, sort: scope.sort)
    return [
      .load(PageLoad(sourceIndex: sourceIndex, scope: scope.kind, request: request, generation: scope.generation))
    ]
  }

  /// The newer page is in: in front of the window, the focus and the view
  /// on the same photo as before.
  mutating func receiveNewer(_ page: Page, for load: PageLoad, depth: Int) {
    var scope = grid.scopeStacks[load.sourceIndex][depth]
    let before = GridRows(scope: scope, columns: layout.columns)
    let focusLine = before.row(ofCell: scope.focus) - scope.scrollRow
    scope.prepend(page, from: load.request.offset)
    let after = GridRows(scope: scope, columns: layout.columns)
    scope.scrollRow = max(0, after.row(ofCell: scope.focus) - focusLine)
    grid.scopeStacks[load.sourceIndex][depth] = scope
  }

  /// A page arrived while a jump waits for its target: land, or ask on.
  mutating func followSeek(sourceIndex: Int) -> [Effect] {
    guard sourceIndex == grid.activeSource, let scope, let target = scope.seekItem else { return [] }
    if scope.itemIndex(atListingOffset: target) != nil { return land(onItem: target) }
    guard scope.hasMore else {
      self.scope?.seekItem = nil
      return land(onItem: scope.listingOffset(ofItem: max(0, scope.items.count - 1)))
    }
    return scope.canRequestPage ? loadNextPage(sourceIndex: sourceIndex) : []
  }
}
