/// Search (`/`): the prompt, and the scope of results it opens.
extension AppState {
  /// Opens the results of `query` over the folder on screen; searching from
  /// results replaces them rather than stacking results.
  mutating func search(_ query: String) -> [Effect] {
    guard let current = scope else { return [] }
    var folder: FolderID? = nil
    switch current.kind {
    case .root: folder = nil
    case .folder(let id): folder = id
    case .search(_, let within): folder = within
    // A stack's photos are few and on screen: its parent's folder is searched.
    case .stack:
      let depth = grid.scopeStacks[grid.activeSource].count - 2
      if depth >= 0, case .folder(let id) = grid.scopeStacks[grid.activeSource][depth].kind { folder = id }
    }
    if case .search = current.kind { grid.scopeStacks[grid.activeSource].removeLast() }
    let results = makeScope(
      .search(query: query, folder: folder), label: "search: " + Sanitizer.sanitize(query), of: grid.activeSource)
    grid.scopeStacks[grid.activeSource].append(results)
    return loadNextPage(sourceIndex: grid.activeSource)
  }

  /// Enter in search: the results on screen are kept (searched for if the
  /// last key's have not been asked for), the words remembered.
  mutating func keepSearch(_ query: String) -> [Effect] {
    searchHistory.removeAll { $0 == query }
    searchHistory.append(query)
    if searchHistory.count > Self.searchHistoryLength { searchHistory.removeFirst() }
    if let scope, SearchPrompt.query(of: scope) == query { return [] }
    return search(query)
  }

  /// How many searches are kept, the oldest forgotten first.
  public static let searchHistoryLength = 200

  /// Results typed go; `results` (those on screen before `/`) come back.
  mutating func restoreResults(_ results: Scope?) -> [Effect] {
    guard let current = scope else { return [] }
    if case .search = current.kind { grid.scopeStacks[grid.activeSource].removeLast() }
    guard let results else { return relistIfNeeded(sourceIndex: grid.activeSource) }
    grid.scopeStacks[grid.activeSource].append(results)
    // Its pages still in flight were dropped with it: the rest is asked for again.
    if results.isLoading {
      grid.scopeStacks[grid.activeSource][grid.scopeStacks[grid.activeSource].count - 1].loadingOffset = nil
      return loadNextPage(sourceIndex: grid.activeSource)
    }
    return []
  }
}
