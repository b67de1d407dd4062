extension AppState {
  /// Up or down `rows` rows of tiles (negative: up), keeping the column
  /// as near as the row allows; day headers are stepped over. Past the
  /// last row, to the last cell when `clampToEnds`.
  mutating func moveRows(_ rows: Int, clampToEnds: Bool) {
    let rowsShown = gridRows
    if rowsShown.isUniform {
      if rows == -1 { return moveFocus(by: -layout.columns, clampToEnds: false) }
      if rows == 1 { return moveDown() }
      return moveFocus(by: rows * layout.visibleCells / max(1, layout.visibleRows), clampToEnds: clampToEnds)
    }
    guard var scope else { return }
    let step = rows < 0 ? -1 : 1
    var row = rowsShown.row(ofCell: scope.focus)
    let column = scope.focus - rowsShown.cells(inRow: row).lowerBound
    var moved = 0
    while moved < abs(rows), let next = rowsShown.tileRow(from: row, step: step) {
      row = next
      moved += 1
    }
    if moved == 0 {
      if clampToEnds { scope.focus = step < 0 ? 0 : scope.cellCount - 1 }
    } else {
      let cells = rowsShown.cells(inRow: row)
      scope.focus = min(cells.lowerBound + column, cells.upperBound - 1)
    }
    self.scope = scope
    // On the last row, down reaches for the next page as in a plain grid.
    guard step > 0 else { return }
    let before = scope.cellCount
    pullNextPage(reaching: moved == 0 ? scope.cellCount : scope.focus)
    let left = abs(rows) - moved
    guard left > 0 else { return }
    if (self.scope?.cellCount ?? 0) > before {
      moveRows(left, clampToEnds: clampToEnds)  // the page fetched ahead was shown
    } else {
      carry(left, rows: true)
    }
  }

  /// Rows of tiles a page key moves.
  var rowsPerPage: Int {
    guard let scope else { return 1 }
    let rowsShown = gridRows
    let shown = rowsShown.visibleRowCount(from: scope.scrollRow, layout: layout)
    let headers = (scope.scrollRow..<(scope.scrollRow + shown)).filter(rowsShown.isHeader).count
    return max(1, shown - headers)
  }

  mutating func moveFocus(by delta: Int, clampToEnds: Bool) {
    if delta > 0 { pullNextPage(reaching: (scope?.focus ?? 0) + delta) }
    guard var scope else { return }
    let target = scope.focus + delta
    if target >= 0 && target < scope.cellCount {
      scope.focus = target
    } else if clampToEnds {
      scope.focus = target < 0 ? 0 : scope.cellCount - 1
    }
    self.scope = scope
    if target >= scope.cellCount { carry(target - scope.focus, rows: false) }
  }

  /// Down one row; from the row above a shorter last row, to the last cell.
  mutating func moveDown() {
    pullNextPage(reaching: (scope?.focus ?? 0) + layout.columns)
    guard var scope else { return }
    let columns = layout.columns
    let target = scope.focus + columns
    if target < scope.cellCount {
      scope.focus = target
    } else if scope.focus / columns < (scope.cellCount - 1) / columns {
      scope.focus = scope.cellCount - 1
    }
    self.scope = scope
    if target >= scope.cellCount { carry(target - scope.focus, rows: false) }
  }

  /// Moving onto or past Load-more (keys, wheel) loads the next page by
  /// itself: the page fetched ahead is shown now, or as soon as it arrives,
  /// so paging is never a chore. Only a click leaves Load-more alone.
  mutating func pullNextPage(reaching target: Int) {
    guard var scope, scope.offersMore, scope.error == nil, target >= scope.loadMoreIndex else { return }
    if !scope.revealPrefetched() { scope.revealOnArrival = true }
    self.scope = scope
  }

  mutating func activateFocused() -> [Effect] {
    guard let scope else { return [] }
    guard let cell = scope.cell(at: scope.focus) else {
      // Nothing listed: Enter confirms the picks; with none, it ends as
      // fzf does on no match (exit 1, nothing printed).
      guard scope.hasLoadedOnce, !scope.hasMore, scope.error == nil else { return [] }
      return selection.isEmpty ? [.finish(.nothingToPick)] : confirm(focused: nil)
    }
    switch cell {
    case .back:
      return goToParent()
    case .loadMore:
      if sources[grid.activeSource].signInNeeded != nil {
        openSignIn(for: grid.activeSource)
        return []
      }
      // In place: a copy of the scope would copy every loaded item.
      let top = grid.scopeStacks[grid.activeSource].count - 1
      if grid.scopeStacks[grid.activeSource][top].revealPrefetched() { return [] }
      grid.scopeStacks[grid.activeSource][top].revealOnArrival = true
      return scope.isLoading ? [] : loadNextPage(sourceIndex: grid.activeSource)
    case .item(let index):
      let item = scope.items[index]
      if options.choosesFolders { return choose(folderOf: item) }
      if case .folder = item.kind { return open(folder: item) }
      if item.isStack { return open(stack: item) }
      return confirm(focused: item)
    }
  }

  /// A folder chooser's Enter: the folder focused, or the one a photo is in.
  mutating func choose(folderOf item: PhotoItem) -> [Effect] {
    let photo = item.stack.map { $0.members[$0.coverIndex] } ?? item
    guard var path = photo.outputPath else {
      notice = Notice("\(Sanitizer.sanitize(item.title)) is no folder on this computer", isError: true)
      return []
    }
    if !item.isFolder, let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) {
      path = PathBytes(slash == 0 ? [UInt8(ascii: "/")] : Array(path.bytes[..<slash]))
    } else if !item.isFolder {
      path = PathBytes(".")
    }
    return [.finish(.picked([path]))]
  }

  mutating func open(folder item: PhotoItem) -> [Effect] {
    let label = Sanitizer.sanitize(item.title)
    let child = makeScope(.folder(item.id), label: label, sort: scope?.sort ?? .name, of: grid.activeSource)
    grid.scopeStacks[grid.activeSource].append(child)
    return loadNextPage(sourceIndex: grid.activeSource)
  }

  /// Opens a stack like an album: its photos, the focus on its cover.
  mutating func open(stack item: PhotoItem) -> [Effect] {
    guard let stack = item.stack else { return [] }
    // Named by its cover, the photo its tile showed.
    let label = "×\(stack.count) " + Sanitizer.sanitize(stack.members[stack.coverIndex].title)
    var child = makeScope(.stack(coverID: item.id), label: label, sort: scope?.sort ?? .name, of: grid.activeSource)
    var page = Page(items: stack.members, hasMore: false, total: stack.count)
    page.days = Self.days(of: stack.members, placesFrom: scope?.days)
    child.receive(page)
    child.focus = 1 + stack.coverIndex
    grid.scopeStacks[grid.activeSource].append(child)
    return []
  }

  /// A stack's days, for its headers: its own counts, with the places the
  /// listing it came from gave those days (the stack's photos carry none).
  static func days(of members: [PhotoItem], placesFrom listing: [DayCount]?) -> [DayCount]? {
    guard let listing else { return nil }
    var days: [DayCount] = []
    for member in members {
      guard let day = member.taken?.day else { continue }
      if let index = days.firstIndex(where: { $0.day == day }) {
        days[index].count += 1
        days[index].videos += member.isVideo ? 1 : 0
      } else {
        let places = listing.first { $0.day == day }?.places ?? []
        days.append(DayCount(day: day, count: 1, places: places, videos: member.isVideo ? 1 : 0))
      }
    }
    return days
  }

  /// Back to the scope below; it is listed again if its source changed meanwhile.
  @discardableResult
  /// Esc in the grid: the scope below on the source's stack (a search's
  /// results, an opened stack and a folder each are one), else leave,
  /// asking first when there are picks.
  mutating func goBack() -> [Effect] {
    guard grid.scopeStacks.indices.contains(grid.activeSource), grid.scopeStacks[grid.activeSource].count > 1 else {
      return quitAsking()
    }
    return goToParent()
  }

  mutating func goToParent() -> [Effect] {
    guard grid.scopeStacks.indices.contains(grid.activeSource), grid.scopeStacks[grid.activeSource].count > 1 else {
      return []
    }
    grid.scopeStacks[grid.activeSource].removeLast()
    return relistIfNeeded(sourceIndex: grid.activeSource)
  }

  /// Shows another source: its sign-in form if it waits for one, and a
  /// fresh try if its last page failed (a server back up, a command source
  /// to start again).
  mutating func switchSource(to index: Int) -> [Effect] {
    guard sources.indices.contains(index) else { return [] }
    // Photos shown again: files added or removed meanwhile are looked for.
    let refresh: [Effect] =
      index != grid.activeSource && sources[index].capabilities.contains(.timeline)
      ? [.refresh(sourceIndex: index)] : []
    grid.activeSource = index
    leaveAllModes()
    if sources[index].signInNeeded != nil {
      openSignIn(for: index)
      return refresh
    }
    guard let top = grid.scopeStacks[index].last, top.error != nil, top.canRequestPage else { return refresh }
    grid.scopeStacks[index][grid.scopeStacks[index].count - 1].error = nil
    return refresh + loadNextPage(sourceIndex: index)
  }

  mutating func cycleSort() -> [Effect] {
    guard let scope else { return [] }
    if case .stack = scope.kind {
      notice = Notice("A stack keeps the order its photos were taken in")
      return []
    }
    guard sources[grid.activeSource].capabilities.contains(.sorting) else {
      notice = Notice("\(sources[grid.activeSource].title) keeps its own order")
      return []
    }
    if case .search = scope.kind { return [] }
    // A new generation drops pages still in flight for the old order.
    var fresh = makeScope(scope.kind, label: scope.label, sort: scope.sort.next, of: grid.activeSource)
    fresh.scrollRow = 0
    self.scope = fresh
    return loadNextPage(sourceIndex: grid.activeSource)
  }

  /// The largest page End asks for at a time.
  static let seekPageLimit = 10_000

  /// The scope on screen has a note the footer has not shown yet: show it
  /// as soon as the footer is free.
  mutating func showNote() {
    // Not under a prompt, which takes the bottom line: after it.
    guard let scope, let note = scope.note, !scope.noteShown, notice == nil, isOnGrid else { return }
    notice = Notice(note)
    self.scope?.noteShown = true
  }

  /// Asks for the page after what the top scope of `sourceIndex` has loaded.
  mutating func loadNextPage(sourceIndex: Int) -> [Effect] {
    guard var scope = grid.scopeStacks[sourceIndex].last, scope.canRequestPage else { return [] }
    let pageSize = layout.pageSize(requested: options.pageSize)
    // Pages count photos: folded into stacks, one may fill only part of
    // the screen, and the next is shown as it comes rather than kept for
    // Load-more.
    if scope.stacking != nil, scope.hasLoadedOnce, scope.items.count < layout.visibleCells {
      scope.revealOnArrival = true
    }
    // Below the root the Back cell takes a slot of the first page, so the
    // first page is one short and its last row still ends flush.
    var limit = scope.isRoot || scope.nextOffset > 0 ? pageSize : max(1, pageSize - 1)
    if let seek = scope.seekItem {
      // A date jump: up to its target in a few big pages.
      limit = max(limit, min(seek + pageSize - scope.nextOffset, Self.seekPageLimit))
    } else if scope.seeksEnd, let total = scope.total {
      // Seeking the end: the rest in a few big pages, not hundreds of small
      // ones (each page costs a round trip through the loop).
      limit = max(limit, min(total - scope.nextOffset, Self.seekPageLimit))
    }
    var request = PageRequest(offset: scope.nextOffset, limit: limit, sort: scope.sort)
    request.hidesRejected = grid.hidesRejected
    scope.loadingOffset = request.offset
    grid.scopeStacks[sourceIndex][grid.scopeStacks[sourceIndex].count - 1] = scope
    return [
      .load(PageLoad(sourceIndex: sourceIndex, scope: scope.kind, request: request, generation: scope.generation))
    ]
  }

  /// Where in the stacks a page result belongs, if its scope still exists.
  private func position(of load: PageLoad) -> Int? {
    guard grid.scopeStacks.indices.contains(load.sourceIndex) else { return nil }
    return grid.scopeStacks[load.sourceIndex].firstIndex { $0.generation == load.generation }
  }

  mutating func receive(_ page: Page, for load: PageLoad) -> [Effect] {
    guard let depth = position(of: load) else { return [] }
    let scope = grid.scopeStacks[load.sourceIndex][depth]
    if scope.loadingNewerOffset == load.request.offset, load.request.offset < scope.baseOffset {
      receiveNewer(page, for: load, depth: depth)
      return []
    }
    // A page for an offset we no longer wait for (a retry overtook it) is stale.
    guard scope.loadingOffset == load.request.offset,
      scope.nextOffset == load.request.offset || (scope.relisting && load.request.offset == scope.baseOffset)
    else {
      return []
    }
    // A listing read again replaces what is shown: the focus goes back to
    // the photo focused now (the user may have moved or jumped meanwhile).
    if scope.relisting, case .item(let focused)? = scope.cell(at: scope.focus) {
      grid.scopeStacks[load.sourceIndex][depth].refocusItemID = scope.items[focused].id
    }
    grid.scopeStacks[load.sourceIndex][depth].receive(page)
    leaveEmptyStartingSource()
    let isTop = depth == grid.scopeStacks[load.sourceIndex].count - 1
    restoreFocus(in: load.sourceIndex, depth: depth)
    var follow = isTop ? followSeekToEnd(sourceIndex: load.sourceIndex) + followSeek(sourceIndex: load.sourceIndex) : []
    if isTop && follow.isEmpty { follow = keepEnd(sourceIndex: load.sourceIndex) }
    // A change that came while this page was on its way is listed now.
    return finishIfNothingToPick() + follow
      + (follow.isEmpty && isTop ? relistIfNeeded(sourceIndex: load.sourceIndex) : [])
  }

  /// When the source shown at start turns out empty (say, stdin gave no
  /// paths), show one that has something instead, unless the user has
  /// already moved on.
  private mutating func leaveEmptyStartingSource() {
    guard !grid.hasInteracted, !grid.keepsStartingSource, grid.scopeStacks[grid.activeSource].count == 1,
      let root = grid.scopeStacks[grid.activeSource].first,
      root.hasLoadedOnce, root.items.isEmpty, !root.hasMore, root.error == nil
    else { return }
    let candidates = grid.scopeStacks.indices.filter { $0 != grid.activeSource }
    if let next = candidates.first(where: { !(grid.scopeStacks[$0].first?.items.isEmpty ?? true) })
      ?? candidates.first(where: { !(grid.scopeStacks[$0].first?.hasLoadedOnce ?? true) })
    {
      grid.activeSource = next
    }
  }

  mutating func receiveFailure(_ message: String, for load: PageLoad) -> [Effect] {
    guard let depth = position(of: load) else { return [] }
    grid.scopeStacks[load.sourceIndex][depth].fail(message)
    if load.sourceIndex == grid.activeSource {
      notice = Notice(message, isError: true)
    }
    return []
  }

  /// Exit 1 when every source's root has loaded and none has anything.
  private func finishIfNothingToPick() -> [Effect] {
    let roots = grid.scopeStacks.compactMap(\.first)
    guard roots.count == sources.count,
      roots.allSatisfy({ $0.hasLoadedOnce && $0.items.isEmpty && !$0.hasMore && $0.error == nil }),
      grid.scopeStacks.allSatisfy({ $0.count == 1 })
    else { return [] }
    return [.finish(.nothingToPick)]
  }

  /// Keeps the focused row on screen and fetches the next page before the
  /// user reaches Load-more, so activating it shows the page at once.
  mutating func keepFocusVisibleAndPrefetch() -> [Effect] {
    guard var scope else { return [] }
    let layout = self.layout
    // Stacks fold a page into fewer tiles: one fetched ahead is shown while
    // the screen is not full.
    if scope.stacking != nil, scope.items.count < layout.visibleCells { _ = scope.revealPrefetched() }
    scope.clampFocus()
    let rowsShown = GridRows(scope: scope, columns: layout.columns)
    let focusRow = rowsShown.row(ofCell: scope.focus)
    // The day's header stays in view above its first row.
    let topWanted = rowsShown.topRow(showingHeaderOf: focusRow)
    if topWanted < scope.scrollRow { scope.scrollRow = topWanted }
    if focusRow >= scope.scrollRow + rowsShown.visibleRowCount(from: scope.scrollRow, layout: layout) {
      scope.scrollRow = rowsShown.firstRow(showingLast: focusRow, layout: layout)
    }
    let rows = rowsShown.count
    let lastTop = rows > 0 ? rowsShown.firstRow(showingLast: rows - 1, layout: layout) : 0
    scope.scrollRow = max(0, min(scope.scrollRow, lastTop))
    self.scope = scope
    if scope.hasNewer, scope.hasLoadedOnce, scope.seekItem == nil, scope.error == nil, focusRow <= layout.visibleRows {
      let newer = loadNewerPage(sourceIndex: grid.activeSource)
      if !newer.isEmpty { return newer }
    }
    let nearEnd = rows - focusRow <= layout.visibleRows + 1
    if scope.hasLoadedOnce, scope.hasMore, scope.canRequestPage, scope.error == nil, nearEnd {
      return loadNextPage(sourceIndex: grid.activeSource)
    }
    return []
  }
}
