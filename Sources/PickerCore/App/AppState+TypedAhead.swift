/// Keys are never dropped while the photos they act on are on their way:
/// before the first page, and at a page boundary, where a burst of moves
/// (a held key, a paste, a script) outruns the listing. They wait, in
/// order, and are applied as the page arrives, so Space after a burst
/// picks the photo the burst leads to.
extension AppState {
  /// The focus waits for a page: none is shown yet, or it moved past the
  /// last loaded photo and the next page has not arrived.
  var focusAwaitsPage: Bool {
    guard let scope else { return false }
    if !scope.hasLoadedOnce { return true }
    guard scope.error == nil, sources[grid.activeSource].signInNeeded == nil else { return false }
    return grid.carriedMove != nil || (scope.revealOnArrival && scope.hasMore)
  }

  /// End is still on its way to the last photo: Enter, Space and the
  /// preview wait to act on that one, not on what the focus passes on
  /// the way; any other key lets go of End at once.
  var endInFlight: Bool {
    guard let scope, scope.holdsEnd, scope.error == nil else { return false }
    return scope.seekItem != nil || scope.seeksEnd || scope.relisting
  }

  /// Keys that act on the photos wait while the focus waits for a page
  /// (and keys after them, to keep the order); the rest (help, search,
  /// sources, cancel) act at once.
  func waitsForPage(before key: Key) -> Bool {
    guard isOnGrid else { return false }
    let action = options.keys.grid.action(for: key)
    if action == .cancel || action == .quit || action == .back { return false }
    if endInFlight { return !grid.typedAhead.isEmpty || action == .activate || action == .toggle || action == .preview }
    guard focusAwaitsPage else { return false }
    return !grid.typedAhead.isEmpty || action?.actsOnPhotos == true
  }

  /// A move that ran past the loaded photos while the next page comes
  /// keeps what is left of it, to finish once the page is shown (60 PgDn
  /// land 60 screens down, not one page boundary short per page).
  mutating func carry(_ amount: Int, rows: Bool) {
    guard amount > 0, let scope, scope.revealOnArrival, scope.hasMore else { return }
    grid.carriedMove = CarriedMove(amount: amount, inRows: rows, generation: scope.generation)
  }

  /// The page is in: the rest of the move is made.
  mutating func applyCarriedMove() {
    guard let move = grid.carriedMove, isOnGrid, let scope else { return }
    guard move.generation == scope.generation else {
      grid.carriedMove = nil
      return
    }
    if scope.revealOnArrival && scope.hasMore && scope.error == nil && sources[grid.activeSource].signInNeeded == nil {
      return
    }
    grid.carriedMove = nil
    if move.inRows {
      moveRows(move.amount, clampToEnds: true)
    } else {
      moveFocus(by: move.amount, clampToEnds: true)
    }
  }

  /// Applies the keys typed ahead once their page is there.
  mutating func replayTypedAhead() -> [Effect] {
    guard !grid.typedAhead.isEmpty, isOnGrid, !focusAwaitsPage, !endInFlight else { return [] }
    let keys = grid.typedAhead
    grid.typedAhead = []
    // Typed for a scope the user has left (another source clicked, a folder
    // opened): they would act on photos never seen.
    guard scope?.generation == grid.typedAheadScope else { return [] }
    var effects: [Effect] = []
    for key in keys { effects += update(.key(key)) }
    return effects
  }
}

/// What is left of a move past the loaded photos: cells, or rows of a
/// grid with day headers.
struct CarriedMove: Hashable {
  var amount: Int
  var inRows: Bool
  /// The scope it was made in; on any other it is dropped.
  var generation: Int
}
