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
    selection.insert(picked(item, output: output))
  }

  /// `item` as the selection keeps it, with what its listing said (and
  /// the select-many key press that picked it, if one did).
  func picked(_ item: PhotoItem, output: PickedOutput, group: Int? = nil) -> PickedPhoto {
    var photo = PickedPhoto(
      key: selectionKey(for: item), title: item.title, output: output,
      details: PickedDetails(item, source: sources[grid.activeSource].title))
    photo.group = group
    return photo
  }

  /// The photo of a stack that is picked, if one is: its tile shows ✓.
  public func pickedMember(of item: PhotoItem) -> PhotoItem? {
    item.stack?.members.first { selection.contains(selectionKey(for: $0)) }
  }
}
