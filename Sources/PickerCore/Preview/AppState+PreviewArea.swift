/// Where the preview's picture goes and the photo's size, for its loupe
/// (`PreviewMode.loupe`).
extension AppState {
  /// Columns the mini-map takes at the right of a zoomed preview (kept
  /// off the picture: some terminals draw pictures above text).
  static let miniMapWidth = 16

  /// Where the picture is drawn: the preview's area, less the mini-map's
  /// columns while zoomed (when there is room for both).
  public func previewPictureArea(zoomed: Bool) -> (x: Int, y: Int, width: Int, height: Int) {
    var area = previewArea
    if zoomed && area.width > 3 * (Self.miniMapWidth + 1) { area.width -= Self.miniMapWidth + 1 }
    return area
  }

  /// The picture's box in screen pixels (a cell of symbols counts as 8x16).
  func previewBox(zoomed: Bool) -> PixelSize {
    let area = previewPictureArea(zoomed: zoomed)
    guard let reference = previewedItem.flatMap(previewReference(for:)) else { return PixelSize(width: 1, height: 1) }
    return ImageRequest.Key(reference: reference, columns: area.width, rows: area.height, style: thumbnailStyle)
      .screenPixelBox
  }

  /// The previewed photo's size upright, once known: from its facts (read
  /// as the preview opens), else what its source listed.
  public var previewedPhotoSize: PixelSize? {
    guard let item = previewedItem else { return nil }
    if let reference = previewReference(for: item), let size = readings.facts[reference]?.metadata.uprightSize {
      return size
    }
    return item.listedSize
  }
}
