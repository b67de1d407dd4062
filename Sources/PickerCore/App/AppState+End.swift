/// End (and G): to the listing's real end, through a moved window on a
/// long timeline, and kept there through whatever arrives before the next
/// key (`Scope.holdsEnd`).
extension AppState {
  /// End and G: to the real end when the source knows how many there are
  /// (the pages needed are asked for, shown as they come); otherwise to the
  /// last loaded photo, with Load-more brought into view.
  mutating func focusLastItem() -> [Effect] {
    guard var scope else { return [] }
    // A long timeline: the window moves to its last page.
    if let total = scope.total, scope.days != nil, total - scope.nextOffset > Self.windowJumpLimit {
      let pageSize = layout.pageSize(requested: options.pageSize)
      scope.moveWindow(to: max(0, total - pageSize), generation: grid.takeGeneration())
      scope.seekItem = total - 1
      scope.holdsEnd = true
      self.scope = scope
      return loadNextPage(sourceIndex: grid.activeSource)
    }
    scope.holdsEnd = true
    var effects: [Effect] = []
    if scope.offersMore, scope.total != nil, scope.error == nil {
      _ = scope.revealPrefetched()
      scope.seeksEnd = scope.hasMore
    }
    scope.focus = scope.lastItemIndex
    self.scope = scope
    if scope.seeksEnd && scope.canRequestPage { effects = loadNextPage(sourceIndex: grid.activeSource) }
    scrollToBottom()
    return effects
  }

  /// Scrolls so the last row (Load-more's, when shown) is on screen; the
  /// focus stays visible (see `keepFocusVisibleAndPrefetch`).
  mutating func scrollToBottom() {
    let rowsShown = gridRows
    guard var scope, rowsShown.count > 0 else { return }
    scope.scrollRow = rowsShown.firstRow(showingLast: rowsShown.count - 1, layout: layout)
    self.scope = scope
  }

  /// After a page or a listing read again, End's target still holds: the
  /// focus goes back to the last photo, and when the listing grew past
  /// what is loaded, End runs again.
  mutating func keepEnd(sourceIndex: Int) -> [Effect] {
    guard sourceIndex == grid.activeSource, isOnGrid, let scope, scope.holdsEnd, scope.seekItem == nil, !scope.seeksEnd,
      !scope.relisting, scope.loadingOffset == nil
    else { return [] }
    if scope.offersMore { return focusLastItem() }
    guard scope.focus != scope.lastItemIndex else { return [] }
    self.scope?.focus = scope.lastItemIndex
    scrollToBottom()
    return []
  }

  /// A page arrived while End was seeking the end: follow it there.
  mutating func followSeekToEnd(sourceIndex: Int) -> [Effect] {
    guard sourceIndex == grid.activeSource, var scope, scope.seeksEnd else { return [] }
    if !scope.hasMore { scope.seeksEnd = false }
    scope.focus = scope.lastItemIndex
    self.scope = scope
    scrollToBottom()
    return scope.seeksEnd ? loadNextPage(sourceIndex: sourceIndex) : []
  }
}
