import Foundation

/// Photos decoded whole for the loupe: each view (a zoom, a pan) is cut
/// from one of these instead of decoding again. Bounded in bytes (two 48
/// MP photos). Decodes of different photos run side by side (compare's
/// panes zoom at once); a second view of a photo being decoded waits for
/// that decode instead of repeating it. No lock is held while decoding.
final class WholePhotoCache: @unchecked Sendable {
  private let photos = MemoryCache<ImageReference, PixelImage>(byteLimit: 400 << 20)
  /// Guards `decoding`; waiters for a photo in decode sleep on it.
  private let condition = NSCondition()
  private var decoding: Set<ImageReference> = []

  /// The photo, kept or decoded now by `decode` (then `decoded` is true).
  func photo(_ reference: ImageReference, decode: () throws(ImageDecodingError) -> PixelImage)
    throws(ImageDecodingError) -> (image: PixelImage, decoded: Bool)
  {
    condition.lock()
    while true {
      if let kept = photos.value(for: reference) {
        condition.unlock()
        return (kept, false)
      }
      guard decoding.contains(reference) else { break }
      condition.wait()
    }
    decoding.insert(reference)
    condition.unlock()
    // Kept before the waiters wake, so they find it; a failed decode wakes
    // them to try for themselves.
    defer {
      condition.lock()
      decoding.remove(reference)
      condition.broadcast()
      condition.unlock()
    }
    let whole = try decode()
    photos.insert(whole, for: reference, cost: whole.byteCount)
    return (whole, true)
  }
}
