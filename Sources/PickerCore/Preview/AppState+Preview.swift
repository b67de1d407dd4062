/// The preview: the focused photo full screen. It moves the grid's focus
/// itself, so leaving it puts the grid on the last photo shown, and Space
/// and Enter act exactly as in the grid.
extension AppState {
  /// The preview's picture area: all but the status line, less the facts
  /// panel when it shows.
  public var previewArea: (x: Int, y: Int, width: Int, height: Int) {
    var width = size.width
    if top(PreviewMode.self)?.showsFacts == true, width >= 2 * Self.factsPanelWidth { width -= Self.factsPanelWidth }
    return (0, 0, max(1, width), max(1, size.height - 1))
  }

  static let factsPanelWidth = 40

  public var isPreviewing: Bool { top(PreviewMode.self) != nil }

  /// The photo the preview shows: the item under the focus.
  public var previewedItem: PhotoItem? {
    guard isPreviewing, let item = focusedItem, !item.isFolder else { return nil }
    return item
  }

  /// The full-screen picture of a photo at the current area and style,
  /// as the loupe shows it (nil: fitted).
  public func previewKey(for item: PhotoItem, loupe: Loupe?) -> ImageRequest.Key? {
    guard options.showsThumbnails, !item.isFolder, !item.isMissing,
      let reference = previewReference(for: item)
    else { return nil }
    let area = previewPictureArea(zoomed: loupe != nil)
    return ImageRequest.Key(
      reference: reference, columns: area.width, rows: area.height, style: thumbnailStyle, loupe: loupe)
  }

  /// The photo at fit, shown while a zoomed view of it is being made.
  func fitPreviewKey(for item: PhotoItem) -> ImageRequest.Key? {
    guard let reference = previewReference(for: item), options.showsThumbnails, !item.isMissing else { return nil }
    let area = previewArea
    return ImageRequest.Key(reference: reference, columns: area.width, rows: area.height, style: thumbnailStyle)
  }

  /// The original where the pipeline can load it (a local file, a remote
  /// source's URL), else the thumbnail.
  func previewReference(for item: PhotoItem) -> ImageReference? {
    switch item.original {
    case .file?, .remote?: return item.original
    default: return item.thumbnail
    }
  }

  mutating func openPreview() -> [Effect] {
    guard let item = focusedItem else { return [] }
    if item.isFolder {
      notice = Notice("v previews photos; Enter opens the folder")
      return []
    }
    enter(PreviewMode())
    return []
  }

  /// The next or previous photo; folders are passed over, and past the
  /// last loaded one the next page is loaded (the focus then lands on its
  /// first photo, as Load-more does in the grid).
  mutating func step(by delta: Int) -> [Effect] {
    guard let scope else { return [] }
    var index = scope.focus + delta
    while let cell = scope.cell(at: index) {
      switch cell {
      case .item(let itemIndex) where !scope.items[itemIndex].isFolder:
        self.scope?.focus = index
        return []
      case .item:
        index += delta
      case .back:
        return []
      case .loadMore:
        self.scope?.focus = index
        return activateFocused()
      }
    }
    return []
  }

  /// The preview's pictures: the photo shown, then the next and previous
  /// ones, so that stepping on finds them ready.
  func wantedPreviewImages(loupe: Loupe?) -> [ImageRequest] {
    guard let scope, let item = previewedItem, let key = previewKey(for: item, loupe: loupe) else { return [] }
    var requests = [ImageRequest(key: key, priority: Self.visiblePriority)]
    if loupe != nil {
      // Zoomed: the photo at fit stays on screen until the view is made;
      // neighbours are not decoded whole ahead.
      if let fit = fitPreviewKey(for: item) { requests.append(ImageRequest(key: fit, priority: Self.visiblePriority)) }
      return requests
    }
    for (offset, priority) in [(1, Self.prefetchPriority), (-1, Self.prefetchPriority - 1)] {
      var index = scope.focus + offset
      while case .item(let itemIndex)? = scope.cell(at: index) {
        let neighbour = scope.items[itemIndex]
        if !neighbour.isFolder {
          if let key = previewKey(for: neighbour, loupe: loupe) {
            requests.append(ImageRequest(key: key, priority: priority))
          }
          break
        }
        index += offset
      }
    }
    return requests
  }

  /// The previewed photo's facts, when not read yet: a local file's are
  /// read once; a remote photo's come from what its source listed.
  func previewFactsWanted() -> ModeIntent? {
    guard let item = previewedItem, let reference = previewReference(for: item), readings.facts[reference] == nil else {
      return nil
    }
    let name = Sanitizer.sanitize(item.title)
    guard case .file = reference else {
      var listed = PhotoFacts(name: name)
      listed.format = "remote photo"
      listed.pixelSize = item.listedSize
      listed.dateTaken = item.listedDate.map(Sanitizer.sanitize)
      return .readFacts(reference, name: name, listed: listed)
    }
    // A clip the index put on the clock of the photo nearest in time says
    // so: its file alone would say this machine's clock.
    let placed = item.taken?.zone == .nearestPhoto ? item.taken : nil
    return .readFacts(reference, name: name, listed: nil, placed: placed)
  }
}
