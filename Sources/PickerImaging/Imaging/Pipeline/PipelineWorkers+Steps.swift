import Foundation

/// One job's work, in named steps as Nuke names its stages: look the
/// thumbnail up (memory, then the disk stores), else fetch and decode it,
/// then render it for the terminal; the loupe's views are cut from a
/// photo decoded whole once.
extension PipelineWorkers {
  /// Makes one thumbnail in three named steps: look it up in a store,
  /// else fetch and decode it, then render it for the terminal. Nil when
  /// nobody wanted it any more before the expensive part. The closure
  /// returned (keeping it in the store) runs after delivery.
  func make(_ key: ImageRequest.Key) -> (ThumbnailResult?, ImagePipeline.JobReport.Path?, (() -> Void)?) {
    if let image = memoryCache.value(for: key) { return (.success(image), .memoryCache, nil) }
    if let loupe = key.loupe { return makeLoupeView(key, loupe) }
    let box = key.pixelBox
    let flavor: FreedesktopThumbnailCache.Flavor = max(box.width, box.height) <= 128 ? .normal : .large
    // Tiles larger than the cache's largest thumbnails (the preview) are
    // decoded for themselves, past the stores.
    let usesStore = max(box.width, box.height) <= flavor.size
    var slot: StoreSlot?
    if usesStore, let store = stores.first(where: { $0.handles(key.reference) }) {
      switch store.lookup(key.reference, flavor: flavor) {
      case .hit(let image): return (render(image, key), .diskCache, nil)
      case .knownFailure(let error): return (.failure(error), .failed, nil)
      case .miss(let found): slot = found
      }
    }
    guard isWanted(key) else { return (nil, nil, nil) }
    let side = usesStore ? flavor.size : max(box.width, box.height)
    do {
      // With a store: a square of its size. Without (the preview): the box
      // itself, so a portrait photo is not decoded for a width it never gets.
      let need = usesStore ? PixelSize(width: side, height: side) : box
      let decoded = try fetchAndDecode(key, need: need)
      let thumbnail = decoded.image
      thumbnail.shrink(maxWidth: side, maxHeight: side)
      // A store gets only thumbnails of its full size (or whole small
      // originals): others read from it expect that much.
      let fillsFlavor =
        max(thumbnail.width, thumbnail.height) >= flavor.size
        || max(decoded.sourceSize.width, decoded.sourceSize.height) <= flavor.size
      let keep = fillsFlavor ? slot.map { slot in { slot.save(thumbnail) } } : nil
      return (render(thumbnail, key), .decoded(embeddedThumbnail: decoded.usedEmbeddedThumbnail), keep)
    } catch {
      let remember = error.isContentError ? slot?.saveFailure.map { save in { save(error.message) } } : nil
      return (.failure(error), .failed, remember)
    }
  }

  /// The loupe's view: the part of the whole photo on screen, at its
  /// scale. The photo is decoded whole once (at its full size, upright)
  /// and kept; panning and zooming then only cut and scale.
  private func makeLoupeView(_ key: ImageRequest.Key, _ loupe: Loupe) -> (
    ThumbnailResult?, ImagePipeline.JobReport.Path?, (() -> Void)?
  ) {
    guard isWanted(key) else { return (nil, nil, nil) }
    do {
      // A box no photo exceeds: the decoder's own size, no thumbnail.
      let everything = PixelSize(width: 1 << 16, height: 1 << 16)
      let (whole, decoded) = try wholePhotos.photo(key.reference) { () throws(ImageDecodingError) in
        try fetchAndDecode(key, need: everything, enough: everything).image
      }
      let path: ImagePipeline.JobReport.Path = decoded ? .decoded(embeddedThumbnail: false) : .memoryCache
      let screen = key.screenPixelBox, box = key.pixelBox
      let (region, drawn) = loupe.visibleRegion(image: PixelSize(width: whole.width, height: whole.height), box: screen)
      // Symbols are drawn from fewer pixels than the screen has.
      let pixels = PixelSize(
        width: max(1, drawn.width * box.width / max(1, screen.width)),
        height: max(1, drawn.height * box.height / max(1, screen.height)))
      return (render(whole.region(region, drawnAt: pixels), key), path, nil)
    } catch {
      return (.failure(error), .failed, nil)
    }
  }

  /// The second step: the loader chain fetches the bytes (or names the
  /// file), the decoder decodes them to cover `need`, though a camera's
  /// EXIF thumbnail serves whenever it covers `enough` (the tile itself).
  private func fetchAndDecode(_ key: ImageRequest.Key, need: PixelSize, enough: PixelSize? = nil)
    throws(ImageDecodingError) -> DecodedImage
  {
    guard let loader = configuration.loaders.first(where: { $0.canHandle(key.reference) }) else {
      throw ImageDecodingError("no loader for this image")
    }
    let data = try loader.load(
      key.reference, isCancelled: { [weak self] in !(self?.isWanted(key) ?? false) },
      progress: { [weak self] received, expected in self?.tellProgress(key, received, expected) })
    switch data {
    case .file(let path):
      return try configuration.decoder.decode(file: path, covering: need, enough: enough ?? key.pixelBox)
    case .bytes(let bytes):
      return try configuration.decoder.decode(bytes: bytes, covering: need, enough: enough ?? key.pixelBox)
    case .head(let bytes): return try configuration.decoder.decode(head: bytes, covering: need)
    }
  }

  private func render(_ image: PixelImage, _ key: ImageRequest.Key) -> ThumbnailResult {
    switch key.style {
    case .symbols(let depth):
      guard let cells = CellRenderer.render(image, maxColumns: key.columns, maxRows: key.rows, depth: depth) else {
        return .failure(ImageDecodingError("cannot render image"))
      }
      return .success(.cells(cells))
    case .pixels(let format):
      guard let pixels = PixelRenderer.render(image, maxColumns: key.columns, maxRows: key.rows, format: format) else {
        return .failure(ImageDecodingError("cannot encode image for the terminal"))
      }
      return .success(.pixels(pixels))
    }
  }
}
