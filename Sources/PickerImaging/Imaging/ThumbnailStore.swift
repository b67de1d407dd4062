/// What a store holds for one photo.
enum StoreLookup {
  case hit(PixelImage)
  /// The photo is known not to make a thumbnail (until it changes).
  case knownFailure(ImageDecodingError)
  /// Not there; the slot keeps one once it is made (nil: nowhere).
  case miss(StoreSlot?)
}

/// Where a thumbnail made now is kept for later runs. Saving runs after the
/// result was delivered, on a pipeline worker.
struct StoreSlot: Sendable {
  let save: @Sendable (PixelImage) -> Void
  /// Remembers that the photo cannot be read (local files only).
  let saveFailure: (@Sendable (String) -> Void)?
}

/// Thumbnails kept between runs, for the references it handles: the first
/// named step of making a thumbnail (look up), before fetch + decode and
/// render.
protocol ThumbnailStore: Sendable {
  func handles(_ reference: ImageReference) -> Bool
  func lookup(_ reference: ImageReference, flavor: FreedesktopThumbnailCache.Flavor) -> StoreLookup
}

/// Local files: the freedesktop cache shared with file managers, keyed by
/// the file's URI and mtime; failures remembered until the file changes.
struct LocalThumbnailStore: ThumbnailStore {
  let cache: FreedesktopThumbnailCache

  func handles(_ reference: ImageReference) -> Bool {
    if case .file = reference { return true }
    return false
  }

  func lookup(_ reference: ImageReference, flavor: FreedesktopThumbnailCache.Flavor) -> StoreLookup {
    guard case .file(let path) = reference else { return .miss(nil) }
    let entry: FreedesktopThumbnailCache.Entry
    switch cache.entry(for: path) {
    case .success(let found): entry = found
    case .failure(let error): return .knownFailure(error)
    }
    if let message = cache.failure(for: entry) {
      return .knownFailure(ImageDecodingError(message, isContentError: true))
    }
    if let image = cache.thumbnail(for: entry, flavor: flavor) { return .hit(image) }
    let cache = cache
    // A file still being copied looks truncated, and one that changed while
    // it was read is not what was decoded: only settled files are kept.
    return .miss(
      StoreSlot(
        save: { image in
          guard cache.isSettled(path, as: entry) else { return }
          try? cache.store(image, for: entry, flavor: flavor)
        },
        saveFailure: { message in
          guard cache.isSettled(path, as: entry) else { return }
          try? cache.storeFailure(message, for: entry)
        }))
  }
}

/// Remote photos: thumbnails under `$XDG_CACHE_HOME/picker-tui/`, keyed by
/// source and URL (URLs of remote photos are taken to name fixed content,
/// so no date is checked).
struct RemoteThumbnailStore: ThumbnailStore {
  let cache: FreedesktopThumbnailCache

  func handles(_ reference: ImageReference) -> Bool {
    if case .remote = reference { return true }
    return false
  }

  func lookup(_ reference: ImageReference, flavor: FreedesktopThumbnailCache.Flavor) -> StoreLookup {
    guard case .remote(let source, let url) = reference else { return .miss(nil) }
    let entry = FreedesktopThumbnailCache.Entry(uri: "picker-tui-remote:" + source + "\n" + url, mtime: 0)
    if let image = cache.thumbnail(for: entry, flavor: flavor) { return .hit(image) }
    let cache = cache
    return .miss(StoreSlot(save: { try? cache.store($0, for: entry, flavor: flavor) }, saveFailure: nil))
  }
}
