import Foundation

/// Photos decoded whole for the loupe: each view (a zoom, a pan) is cut
/// from one of these instead of decoding again. Bounded in bytes (two 48
/// MP photos); decodes take turns, so a second view waits for the first
/// decode instead of repeating it.
final class WholePhotoCache: @unchecked Sendable {
  private let photos = MemoryCache<ImageReference, PixelImage>(byteLimit: 400 << 20)
  private let decoding = NSLock()

  /// The photo, kept or decoded now by `decode` (then `decoded` is true).
  func photo(_ reference: ImageReference, decode: () throws(ImageDecodingError) -> PixelImage)
    throws(ImageDecodingError) -> (image: PixelImage, decoded: Bool)
  {
    decoding.lock()
    defer { decoding.unlock() }
    if let kept = photos.value(for: reference) { return (kept, false) }
    let whole = try decode()
    photos.insert(whole, for: reference, cost: whole.byteCount)
    return (whole, true)
  }
}
