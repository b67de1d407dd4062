extension AppState {
  mutating func toggleFocused() {
    guard var item = focusedItem else { return }
    // On a stack: unpick the photo of it already picked (its cover may have
    // changed since, as signatures came in), else pick the cover.
    if let picked = pickedMember(of: item) { item = picked }
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

  /// The photo of a stack that is picked, if one is: its tile shows ✓.
  public func pickedMember(of item: PhotoItem) -> PhotoItem? {
    item.stack?.members.first { selection.contains(selectionKey(for: $0)) }
  }

  mutating func handleTray(_ key: Key, focus: Int) -> [Effect] {
    guard let action = options.keys.tray.action(for: key) else { return [] }
    let last = selection.count - 1
    switch action {
    case .previous:
      mode = .tray(focus: max(0, focus - 1))
    case .next:
      mode = .tray(focus: min(last, focus + 1))
    case .first:
      mode = .tray(focus: 0)
    case .last:
      mode = .tray(focus: last)
    case .remove:
      guard selection.photos.indices.contains(focus) else { break }
      selection.remove(selection.photos[focus].key)
      if selection.isEmpty { leaveMode() } else { mode = .tray(focus: min(focus, selection.count - 1)) }
    case .back:
      leaveMode()
    case .confirm:
      return confirm(focused: nil)
    case .cancel:
      return [.finish(.cancelled)]
    }
    return []
  }
}
