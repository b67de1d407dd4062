/// The search prompt (`/`): what is typed, and the scope of results it opens.
extension AppState {
  mutating func openSearchPrompt() {
    guard sources[activeSource].capabilities.contains(.search) else {
      notice = Notice("\(sources[activeSource].title) cannot search")
      return
    }
    enter(.search(query: ""))
  }

  mutating func handleSearchPrompt(_ key: Key, query: String) -> [Effect] {
    guard let action = options.keys.search.action(for: key) else {
      if case .char(let c) = key { mode = .search(query: query + String(c)) }
      return []
    }
    switch action {
    case .close:
      leaveMode()
    case .cancel:
      return [.finish(.cancelled)]
    case .clear:
      mode = .search(query: "")
    case .deleteBackward:
      mode = .search(query: String(query.dropLast()))
    case .submit:
      leaveMode()
      guard !query.isEmpty, let current = scope else { return [] }
      var folder: FolderID? = nil
      switch current.kind {
      case .root: folder = nil
      case .folder(let id): folder = id
      case .search(_, let within): folder = within
      // A stack's photos are few and on screen: its parent's folder is searched.
      case .stack:
        let depth = scopeStacks[activeSource].count - 2
        if depth >= 0, case .folder(let id) = scopeStacks[activeSource][depth].kind { folder = id }
      }
      // Searching from a search replaces it rather than stacking results.
      if case .search = current.kind { scopeStacks[activeSource].removeLast() }
      let results = makeScope(
        .search(query: query, folder: folder), label: "search: " + Sanitizer.sanitize(query), of: activeSource)
      scopeStacks[activeSource].append(results)
      return loadNextPage(sourceIndex: activeSource)
    }
    return []
  }
}
