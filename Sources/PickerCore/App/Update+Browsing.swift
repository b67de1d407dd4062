extension AppState {
  mutating func moveFocus(by delta: Int, clampToEnds: Bool) {
    guard var scope else { return }
    let target = scope.focus + delta
    if target >= 0 && target < scope.cellCount {
      scope.focus = target
    } else if clampToEnds {
      scope.focus = target < 0 ? 0 : scope.cellCount - 1
    }
    self.scope = scope
  }

  /// Down one row; from the row above a shorter last row, to the last cell.
  mutating func moveDown() {
    guard var scope else { return }
    let columns = layout.columns
    let target = scope.focus + columns
    if target < scope.cellCount {
      scope.focus = target
    } else if scope.focus / columns < (scope.cellCount - 1) / columns {
      scope.focus = scope.cellCount - 1
    }
    self.scope = scope
  }

  /// End and G go to the last loaded photo or folder, not to Load-more.
  mutating func focusLastItem() {
    guard var scope else { return }
    scope.focus = max(0, (scope.isRoot ? 0 : 1) + scope.items.count - 1)
    self.scope = scope
  }

  mutating func activateFocused() -> [Effect] {
    guard let scope, let cell = scope.cell(at: scope.focus) else { return [] }
    switch cell {
    case .back:
      goToParent()
      return []
    case .loadMore:
      if signInNeeded[activeSource] != nil {
        openSignIn(for: activeSource)
        return []
      }
      // In place: a copy of the scope would copy every loaded item.
      let top = stacks[activeSource].count - 1
      if stacks[activeSource][top].revealPrefetched() { return [] }
      stacks[activeSource][top].revealOnArrival = true
      return scope.isLoading ? [] : loadNextPage(sourceIndex: activeSource)
    case .item(let index):
      let item = scope.items[index]
      if case .folder = item.kind { return open(folder: item) }
      return confirm(focused: item)
    }
  }

  mutating func open(folder item: PhotoItem) -> [Effect] {
    let label = Sanitizer.sanitize(item.title)
    let child = Scope(
      kind: .folder(item.id), label: label, generation: takeGeneration(), sort: scope?.sort ?? .name)
    stacks[activeSource].append(child)
    return loadNextPage(sourceIndex: activeSource)
  }

  mutating func goToParent() {
    guard stacks.indices.contains(activeSource), stacks[activeSource].count > 1 else { return }
    stacks[activeSource].removeLast()
  }

  /// Shows another source: its sign-in form if it waits for one, and a
  /// fresh try if its last page failed (a server back up, a command source
  /// to start again).
  mutating func switchSource(to index: Int) -> [Effect] {
    guard sources.indices.contains(index) else { return [] }
    activeSource = index
    mode = .grid
    if signInNeeded[index] != nil {
      openSignIn(for: index)
      return []
    }
    guard let top = stacks[index].last, top.error != nil, top.canRequestPage else { return [] }
    stacks[index][stacks[index].count - 1].error = nil
    return loadNextPage(sourceIndex: index)
  }

  mutating func cycleSort() -> [Effect] {
    guard let scope else { return [] }
    guard sources[activeSource].capabilities.contains(.sorting) else {
      notice = Notice("\(sources[activeSource].title) keeps its own order")
      return []
    }
    if case .search = scope.kind { return [] }
    // A new generation drops pages still in flight for the old order.
    var fresh = Scope(kind: scope.kind, label: scope.label, generation: takeGeneration(), sort: scope.sort.next)
    fresh.scrollRow = 0
    self.scope = fresh
    return loadNextPage(sourceIndex: activeSource)
  }

  /// Asks for the page after what the top scope of `sourceIndex` has loaded.
  mutating func loadNextPage(sourceIndex: Int) -> [Effect] {
    guard var scope = stacks[sourceIndex].last, scope.canRequestPage else { return [] }
    let pageSize = layout.pageSize(requested: options.pageSize)
    // Below the root the Back cell takes a slot of the first page, so the
    // first page is one short and its last row still ends flush.
    let limit = scope.isRoot || scope.nextOffset > 0 ? pageSize : max(1, pageSize - 1)
    let request = PageRequest(offset: scope.nextOffset, limit: limit, sort: scope.sort)
    scope.loadingOffset = request.offset
    stacks[sourceIndex][stacks[sourceIndex].count - 1] = scope
    return [
      .load(PageLoad(sourceIndex: sourceIndex, scope: scope.kind, request: request, generation: scope.generation))
    ]
  }

  /// Where in the stacks a page result belongs, if its scope still exists.
  private func position(of load: PageLoad) -> Int? {
    guard stacks.indices.contains(load.sourceIndex) else { return nil }
    return stacks[load.sourceIndex].firstIndex { $0.generation == load.generation }
  }

  mutating func receive(_ page: Page, for load: PageLoad) -> [Effect] {
    guard let depth = position(of: load) else { return [] }
    let scope = stacks[load.sourceIndex][depth]
    // A page for an offset we no longer wait for (a retry overtook it) is stale.
    guard scope.loadingOffset == load.request.offset, scope.nextOffset == load.request.offset else {
      return []
    }
    stacks[load.sourceIndex][depth].receive(page)
    leaveEmptyStartingSource()
    return finishIfNothingToPick()
  }

  /// When the source shown at start turns out empty (say, stdin gave no
  /// paths), show one that has something instead, unless the user has
  /// already moved on.
  private mutating func leaveEmptyStartingSource() {
    guard !hasInteracted, !keepsStartingSource, stacks[activeSource].count == 1, let root = stacks[activeSource].first,
      root.hasLoadedOnce, root.items.isEmpty, !root.hasMore, root.error == nil
    else { return }
    let candidates = stacks.indices.filter { $0 != activeSource }
    if let next = candidates.first(where: { !(stacks[$0].first?.items.isEmpty ?? true) })
      ?? candidates.first(where: { !(stacks[$0].first?.hasLoadedOnce ?? true) })
    {
      activeSource = next
    }
  }

  mutating func receiveFailure(_ message: String, for load: PageLoad) -> [Effect] {
    guard let depth = position(of: load) else { return [] }
    stacks[load.sourceIndex][depth].fail(message)
    if load.sourceIndex == activeSource {
      notice = Notice(message, isError: true)
    }
    return []
  }

  /// Exit 1 when every source's root has loaded and none has anything.
  private func finishIfNothingToPick() -> [Effect] {
    let roots = stacks.compactMap(\.first)
    guard roots.count == sources.count,
      roots.allSatisfy({ $0.hasLoadedOnce && $0.items.isEmpty && !$0.hasMore && $0.error == nil }),
      stacks.allSatisfy({ $0.count == 1 })
    else { return [] }
    return [.finish(.nothingToPick)]
  }

  /// Keeps the focused row on screen and fetches the next page before the
  /// user reaches Load-more, so activating it shows the page at once.
  mutating func keepFocusVisibleAndPrefetch() -> [Effect] {
    guard var scope else { return [] }
    let layout = self.layout
    scope.clampFocus()
    let focusRow = scope.focus / layout.columns
    if focusRow < scope.scrollRow { scope.scrollRow = focusRow }
    if focusRow >= scope.scrollRow + layout.visibleRows {
      scope.scrollRow = focusRow - layout.visibleRows + 1
    }
    let rows = (scope.cellCount + layout.columns - 1) / layout.columns
    scope.scrollRow = max(0, min(scope.scrollRow, rows - layout.visibleRows))
    self.scope = scope
    let nearEnd = rows - focusRow <= layout.visibleRows + 1
    if scope.hasLoadedOnce, scope.hasMore, scope.canRequestPage, scope.error == nil, nearEnd {
      return loadNextPage(sourceIndex: activeSource)
    }
    return []
  }
}
