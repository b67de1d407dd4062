/// Scopes as the UI makes them, and what sources say unasked: an index
/// filling in, its progress.
extension AppState {
  /// A new scope of source `index`: a timeline's, or one sorted by date
  /// taken, groups its photos by day.
  mutating func makeScope(_ kind: Scope.Kind, label: String, sort: SortOrder = .name, of index: Int) -> Scope {
    let isTimeline = sources.indices.contains(index) && sources[index].capabilities.contains(.timeline)
    var scope = Scope(kind: kind, label: label, generation: grid.takeGeneration(), sort: isTimeline ? .date : sort)
    scope.groupsByDay = isTimeline || sort == .date
    if case .stack = kind {
    } else if scope.groupsByDay && options.stacksPhotos {
      scope.restack(options.stackingRule)
    }
    return scope
  }

  mutating func receive(_ change: SourceChange, from index: Int) -> [Effect] {
    guard sources.indices.contains(index) else { return [] }
    switch change {
    case .status(let text):
      sources[index].status = text
      return []
    case .contentChanged:
      // Every listing of the source may have changed; the one on screen is
      // listed again now, the others when they are shown again.
      for depth in grid.scopeStacks[index].indices {
        if case .stack = grid.scopeStacks[index][depth].kind { continue }
        grid.scopeStacks[index][depth].needsRelist = true
      }
      return relistIfNeeded(sourceIndex: index)
    }
  }

  /// Lists the source's top scope again when its source said it changed,
  /// as much of it as was loaded, and keeps the focus on the same photo;
  /// what is on screen stays until the new listing is in. A scope busy
  /// with a page, a jump or End waits until it is done (its page arriving
  /// calls this again).
  mutating func relistIfNeeded(sourceIndex index: Int) -> [Effect] {
    guard grid.scopeStacks.indices.contains(index), var top = grid.scopeStacks[index].last, top.needsRelist,
      top.hasLoadedOnce, top.loadingOffset == nil, top.loadingNewerOffset == nil, top.seekItem == nil, !top.seeksEnd,
      grid.typedAhead.isEmpty
    else { return [] }
    if case .item(let focused)? = top.cell(at: top.focus) { top.refocusItemID = top.items[focused].id }
    let pageSize = layout.pageSize(requested: options.pageSize)
    // All that was shown comes back in one page, not page by page.
    var request = PageRequest(
      offset: top.baseOffset, limit: max(pageSize, min(top.loadedPhotoCount, Self.seekPageLimit)), sort: top.sort)
    request.hidesRejected = grid.hidesRejected
    top.startRelisting()
    grid.scopeStacks[index][grid.scopeStacks[index].count - 1] = top
    return [.load(PageLoad(sourceIndex: index, scope: top.kind, request: request, generation: top.generation))]
  }

  /// The relisted page is in: the focus goes back to its photo.
  mutating func restoreFocus(in sourceIndex: Int, depth: Int) {
    guard let id = grid.scopeStacks[sourceIndex][depth].refocusItemID else { return }
    grid.scopeStacks[sourceIndex][depth].refocusItemID = nil
    let scope = grid.scopeStacks[sourceIndex][depth]
    if let index = scope.itemIndex(ofPhotoID: id) {
      grid.scopeStacks[sourceIndex][depth].focus = index + (scope.isRoot ? 0 : 1)
    }
  }
}
