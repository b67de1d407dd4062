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

  /// Enter on a photo: confirm the selection, or the focused photo alone when
  /// nothing is selected.
  mutating func confirm(focused item: PhotoItem?) -> [Effect] {
    let printed = selection.printed
    var outputs = printed.map(\.output)
    var titles = printed.map(\.title)
    if outputs.isEmpty {
      guard let item, item.isPickable, let output = item.pickedOutput else {
        if let item, item.isMissing {
          notice = Notice("\(Sanitizer.sanitize(item.title)) is missing and cannot be picked", isError: true)
        }
        return []
      }
      outputs = [output]
      titles = [item.title]
    }
    if let refusal = options.limits.refusalToConfirm(count: outputs.count) {
      notice = Notice(refusal, isError: true)
      return []
    }
    let paths = outputs.compactMap { if case .local(let path) = $0 { path } else { nil } }
    if !options.print0, let bad = paths.first(where: { $0.bytes.contains(UInt8(ascii: "\n")) }) {
      notice = Notice(
        "\(Sanitizer.sanitize(bad.lastComponent)) has a newline in its path: use -0 (--print0) to pick it",
        isError: true)
      return []
    }
    if paths.count < outputs.count { return startDownload(outputs, titles: titles) }
    return [.finish(.picked(paths))]
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
