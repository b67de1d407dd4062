/// The pictures the pipeline keeps in memory, in two budgets: grid tiles,
/// and the larger pictures of the preview, the loupe and compare. A few
/// previews would otherwise push out the page of tiles behind them, and
/// going back to the grid would decode the page again.
public final class ThumbnailMemory: Sendable {
  public let tiles: MemoryCache<ImageRequest.Key, Thumbnail>
  public let previews: MemoryCache<ImageRequest.Key, Thumbnail>

  public init(tileBytes: Int, previewBytes: Int) {
    tiles = MemoryCache(byteLimit: tileBytes)
    previews = MemoryCache(byteLimit: previewBytes)
  }

  /// Larger than any thumbnail the disk cache holds, or zoomed: a preview's.
  static func isPreview(_ key: ImageRequest.Key) -> Bool {
    let box = key.pixelBox
    return key.loupe != nil || max(box.width, box.height) > FreedesktopThumbnailCache.Flavor.large.size
  }

  private func cache(for key: ImageRequest.Key) -> MemoryCache<ImageRequest.Key, Thumbnail> {
    Self.isPreview(key) ? previews : tiles
  }

  public func value(for key: ImageRequest.Key) -> Thumbnail? { cache(for: key).value(for: key) }

  public func insert(_ image: Thumbnail, for key: ImageRequest.Key, cost: Int) {
    cache(for: key).insert(image, for: key, cost: cost)
  }
}
