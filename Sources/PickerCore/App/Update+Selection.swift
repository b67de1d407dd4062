extension AppState {
  mutating func toggleFocused() {
    guard let item = focusedItem else { return }
    if item.isFolder {
      notice = Notice("Space picks photos; Enter opens the folder")
      return
    }
    if item.isMissing {
      notice = Notice("\(Sanitizer.sanitize(item.title)) is missing and cannot be picked", isError: true)
      return
    }
    guard let output = item.pickedOutput else { return }
    let key = selectionKey(for: item)
    if selection.contains(key) {
      selection.remove(key)
      return
    }
    if let refusal = options.limits.refusalToAdd(count: selection.count) {
      notice = Notice(refusal, isError: true)
      return
    }
    selection.insert(PickedPhoto(key: key, title: item.title, output: output))
  }

  mutating func handleTray(_ key: Key, focus: Int) -> [Effect] {
    let last = selection.count - 1
    switch key {
    case .left, .char("h"):
      mode = .tray(focus: max(0, focus - 1))
    case .right, .char("l"):
      mode = .tray(focus: min(last, focus + 1))
    case .home:
      mode = .tray(focus: 0)
    case .end:
      mode = .tray(focus: last)
    case .char(" "), .char("x"), .delete, .backspace:
      guard selection.photos.indices.contains(focus) else { break }
      selection.remove(selection.photos[focus].key)
      mode = selection.isEmpty ? .grid : .tray(focus: min(focus, selection.count - 1))
    case .escape, .char("t"), .up, .char("k"):
      mode = .grid
    case .enter:
      return confirm(focused: nil)
    case .ctrl("c"), .char("q"):
      return [.finish(.cancelled)]
    default:
      break
    }
    return []
  }

  mutating func openSearchPrompt() {
    guard sources[activeSource].capabilities.contains(.search) else {
      notice = Notice("\(sources[activeSource].title) cannot search")
      return
    }
    mode = .search(query: "")
  }

  mutating func handleSearchPrompt(_ key: Key, query: String) -> [Effect] {
    switch key {
    case .escape:
      mode = .grid
    case .ctrl("c"):
      return [.finish(.cancelled)]
    case .ctrl("u"):
      mode = .search(query: "")
    case .backspace:
      mode = .search(query: String(query.dropLast()))
    case .char(let c):
      mode = .search(query: query + String(c))
    case .enter:
      mode = .grid
      guard !query.isEmpty, let current = scope else { return [] }
      var folder: FolderID? = nil
      switch current.kind {
      case .root: folder = nil
      case .folder(let id): folder = id
      case .search(_, let within): folder = within
      }
      // Searching from a search replaces it rather than stacking results.
      if case .search = current.kind { stacks[activeSource].removeLast() }
      let results = Scope(
        kind: .search(query: query, folder: folder), label: "search: " + Sanitizer.sanitize(query),
        generation: takeGeneration())
      stacks[activeSource].append(results)
      return loadNextPage(sourceIndex: activeSource)
    default:
      break
    }
    return []
  }
}
