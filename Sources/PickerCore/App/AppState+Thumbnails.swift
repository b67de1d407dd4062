extension AppState {
  /// Priorities: every cell on screen before any prefetched one, and in
  /// reading order within each group.
  static let visiblePriority = 2_000_000
  static let prefetchPriority = 1_000_000

  /// The thumbnail a photo tile shows at the current size and colours.
  public func thumbnailKey(for item: PhotoItem) -> ImageRequest.Key? {
    // A folder's thumbnail is its cover (a place's newest photo).
    guard options.showsThumbnails, !item.isMissing, let reference = item.thumbnail else { return nil }
    let layout = layout
    return ImageRequest.Key(
      reference: reference, columns: layout.thumbnailWidth, rows: layout.thumbnailHeight, style: thumbnailStyle)
  }

  /// Pixels where the terminal draws them, else symbols in its colours.
  public var thumbnailStyle: ThumbnailStyle {
    options.pixelFormat.map(ThumbnailStyle.pixels) ?? .symbols(options.colorDepth)
  }

  /// The thumbnails of the rows on screen, then of one screen below and one
  /// row above (where the user goes next).
  func wantedThumbnails() -> [ImageRequest] {
    // A mode that shows pictures of its own (the preview, compare) says which.
    if let wanted = topMode?.wantedImages(app: self) { return wanted }
    guard let scope, options.showsThumbnails else { return [] }
    let rowsShown = gridRows
    let shown = rowsShown.visibleRowCount(from: scope.scrollRow, layout: layout)
    let visible = scope.scrollRow..<(scope.scrollRow + shown)
    let below = visible.upperBound..<(visible.upperBound + shown)
    let above = max(0, scope.scrollRow - 1)..<scope.scrollRow
    var requests: [ImageRequest] = []
    func add(rows: Range<Int>, priority: Int) {
      for index in rows.flatMap({ rowsShown.cells(inRow: $0) }) {
        guard case .item(let itemIndex)? = scope.cell(at: index),
          let key = thumbnailKey(for: scope.items[itemIndex])
        else { continue }
        requests.append(ImageRequest(key: key, priority: priority - requests.count))
      }
    }
    add(rows: visible, priority: Self.visiblePriority)
    add(rows: below, priority: Self.prefetchPriority)
    add(rows: above, priority: Self.prefetchPriority - 10_000)
    return requests
  }

  /// Keeps thumbnails for the wanted cells only; the missing ones wait as
  /// `.loading` until a result comes.
  mutating func keepWantedThumbnails() {
    let wanted = wantedThumbnails()
    let keys = Set(wanted.map(\.key))
    if thumbnails.count != keys.count || thumbnails.keys.contains(where: { !keys.contains($0) }) {
      thumbnails = thumbnails.filter { keys.contains($0.key) }
      fetchProgress = fetchProgress.filter { keys.contains($0.key) }
    }
    for request in wanted where thumbnails[request.key] == nil { thumbnails[request.key] = .loading }
  }

  /// The thumbnails still missing on and near the screen, most urgent
  /// first: derived from the state like the view, and handed to the one
  /// owner of thumbnail demand (`ThumbnailDemand`) once a batch of events
  /// is applied.
  public var thumbnailWishes: [ImageRequest] {
    wantedThumbnails().filter { thumbnails[$0.key] == .loading }
  }

  /// A result counts only while its cell is still wanted; one for a scope
  /// the user left, or a size no longer shown, is dropped.
  mutating func receiveThumbnail(_ result: ThumbnailResult, for key: ImageRequest.Key) {
    guard thumbnails[key] == .loading else { return }
    fetchProgress[key] = nil
    switch result {
    case .success(let cells): thumbnails[key] = .ready(cells)
    case .failure(let error): thumbnails[key] = .failed(error.message)
    }
  }
}
