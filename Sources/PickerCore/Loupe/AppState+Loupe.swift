/// The preview's loupe: `+`/`-` zoom in steps, `z` goes between fit and
/// 100%, `0` back to fit; arrows and hjkl pan a third of the view, Shift
/// and an arrow a whole view; the wheel zooms and a drag pans; `n`/`p`
/// step to the next or previous photo keeping the zoom and the centre.
extension AppState {
  /// Columns the mini-map takes at the right of a zoomed preview (kept
  /// off the picture: some terminals draw pictures above text).
  static let miniMapWidth = 16

  /// Where the picture is drawn: the preview's area, less the mini-map's
  /// columns while zoomed (when there is room for both).
  public var previewPictureArea: (x: Int, y: Int, width: Int, height: Int) { pictureArea(zoomed: loupe != nil) }

  private func pictureArea(zoomed: Bool) -> (x: Int, y: Int, width: Int, height: Int) {
    var area = previewArea
    if zoomed && area.width > 3 * (Self.miniMapWidth + 1) { area.width -= Self.miniMapWidth + 1 }
    return area
  }

  /// The picture's box in screen pixels (a cell of symbols counts as 8x16).
  func previewBox(zoomed: Bool) -> PixelSize {
    let area = pictureArea(zoomed: zoomed)
    guard let reference = previewedItem.flatMap(previewReference(for:)) else { return PixelSize(width: 1, height: 1) }
    return ImageRequest.Key(reference: reference, columns: area.width, rows: area.height, style: thumbnailStyle)
      .screenPixelBox
  }

  /// The previewed photo's size upright, once known: from its facts (read
  /// as the preview opens), else what its source listed.
  public var previewedPhotoSize: PixelSize? {
    guard let item = previewedItem else { return nil }
    if let reference = previewReference(for: item), let size = facts[reference]?.metadata.uprightSize { return size }
    return item.listedSize
  }

  /// Zooms, or waits for the photo's size to do it (its facts are read).
  mutating func zoom(_ action: PreviewAction) {
    guard let size = previewedPhotoSize else {
      pendingZoom = action
      return
    }
    pendingZoom = nil
    let step: ZoomStep
    switch action {
    case .zoomIn: step = .in
    case .zoomOut: step = .out
    case .actualSize: step = .actualSize
    default: step = .fit
    }
    zoom(step, photo: size, fitBox: previewBox(zoomed: false), box: previewBox(zoomed: true))
  }

  /// One zoom step for a photo of `photo` pixels: fit is reckoned in
  /// `fitBox`, the view kept on the photo in `box`.
  mutating func zoom(_ step: ZoomStep, photo size: PixelSize, fitBox: PixelSize, box: PixelSize) {
    let fit = Loupe.fitScale(image: size, box: fitBox)
    switch step {
    case .in:
      loupe = Loupe.zoomedIn(from: loupe, fit: fit).clamped(image: size, box: box)
    case .out:
      loupe = Loupe.zoomedOut(from: loupe, fit: fit)?.clamped(image: size, box: box)
    case .actualSize:
      // 100% is the photo's own pixels, smaller than fit for a photo the
      // fit enlarges.
      if loupe?.scale == 1 || abs(fit - 1) < 0.001 {
        loupe = nil
      } else {
        loupe = Loupe(scale: 1, centerX: loupe?.centerX ?? 0.5, centerY: loupe?.centerY ?? 0.5)
          .clamped(image: size, box: box)
      }
    case .fit:
      loupe = nil
    }
    if loupe == nil, step == .actualSize, abs(fit - 1) < 0.001 {
      notice = Notice("Shown at 100% already: the photo fits the screen at its own size")
    }
  }

  /// A zoom asked for before the photo's size was known, now that it is.
  mutating func applyPendingZoom() {
    guard let action = pendingZoom, isPreviewing, previewedPhotoSize != nil else { return }
    zoom(action)
  }

  /// Moves the view by fractions of itself; nothing at fit.
  mutating func pan(dx: Double, dy: Double) {
    guard let current = loupe, let size = previewedPhotoSize else { return }
    loupe = current.panned(dx: dx, dy: dy, image: size, box: previewBox(zoomed: true))
  }

  /// The wheel zooms; a drag pans, the photo following the pointer.
  mutating func handlePreviewMouse(_ mouse: MouseEvent) {
    switch mouse.kind {
    case .wheelUp: zoom(.zoomIn)
    case .wheelDown: zoom(.zoomOut)
    case .click, .doubleClick:
      loupeDragFrom = LoupeDragPoint(x: mouse.x, y: mouse.y)
    case .drag:
      if let from = loupeDragFrom {
        let area = previewPictureArea
        pan(
          dx: Double(from.x - mouse.x) / Double(max(1, area.width)),
          dy: Double(from.y - mouse.y) / Double(max(1, area.height)))
      }
      loupeDragFrom = LoupeDragPoint(x: mouse.x, y: mouse.y)
    }
  }
}

/// The loupe's zoom keys, wherever they are pressed.
enum ZoomStep: Hashable, Sendable {
  case `in`, out, actualSize, fit
}
