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
}
