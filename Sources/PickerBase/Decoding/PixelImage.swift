import CImaging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decoded RGBA pixels (8 bits a channel, unassociated alpha), owned by this
/// object and released with it. Never mutated once shared.
public final class PixelImage: @unchecked Sendable {
  package var raw: pk_image

  package init(taking raw: pk_image) { self.raw = raw }

  /// Pixels from RGBA bytes (width * height * 4 of them); for tests and
  /// generated images.
  public convenience init(width: Int, height: Int, rgba: [UInt8]) {
    precondition(rgba.count == width * height * 4, "RGBA bytes do not match the size")
    let pixels = malloc(max(1, rgba.count))!.assumingMemoryBound(to: UInt8.self)
    rgba.withUnsafeBufferPointer { pixels.update(from: $0.baseAddress!, count: rgba.count) }
    self.init(taking: pk_image(width: Int32(width), height: Int32(height), pixels: pixels))
  }

  deinit { pk_image_free(&raw) }

  public var width: Int { Int(raw.width) }
  public var height: Int { Int(raw.height) }
  public var byteCount: Int { width * height * 4 }

  /// The RGBA bytes of pixel (x, y).
  public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    precondition(x >= 0 && x < width && y >= 0 && y < height)
    let p = raw.pixels + (y * width + x) * 4
    return (p[0], p[1], p[2], p[3])
  }

  /// A copy shrunk to fit inside the box (the same object when it already fits).
  public func fitted(maxWidth: Int, maxHeight: Int) -> PixelImage {
    if width <= maxWidth && height <= maxHeight { return self }
    // One copy of the pixels, then the shrink in place.
    let pixels = malloc(byteCount)!.assumingMemoryBound(to: UInt8.self)
    pixels.update(from: raw.pixels, count: byteCount)
    let copy = PixelImage(taking: pk_image(width: raw.width, height: raw.height, pixels: pixels))
    copy.shrink(maxWidth: maxWidth, maxHeight: maxHeight)
    return copy
  }

  /// Shrinks this image in place. Only for an image nobody else holds yet
  /// (fresh from the decoder): shared images never change.
  package func shrink(maxWidth: Int, maxHeight: Int) {
    _ = pk_image_fit(&raw, Int32(maxWidth), Int32(maxHeight))
  }

  /// The part `rect` drawn at `size`: shrunk by averaging when smaller,
  /// and when larger each photo pixel a block of screen pixels (a loupe
  /// shows pixels as they are, not smoothed).
  public func region(_ rect: PixelRect, drawnAt size: PixelSize) -> PixelImage {
    let x = max(0, min(rect.x, width - 1)), y = max(0, min(rect.y, height - 1))
    let w = max(1, min(rect.width, width - x)), h = max(1, min(rect.height, height - y))
    if size.width <= w && size.height <= h {
      let pixels = malloc(w * h * 4)!.assumingMemoryBound(to: UInt8.self)
      let rowBytes = w * 4
      for row in 0..<h {
        let from: Int = ((y + row) * width + x) * 4
        let target: UnsafeMutablePointer<UInt8> = pixels + row * rowBytes
        target.update(from: raw.pixels + from, count: rowBytes)
      }
      let cropped = PixelImage(taking: pk_image(width: Int32(w), height: Int32(h), pixels: pixels))
      cropped.shrink(maxWidth: size.width, maxHeight: size.height)
      return cropped
    }
    let out = max(1, size.width), rows = max(1, size.height)
    let pixels = malloc(out * rows * 4)!.assumingMemoryBound(to: UInt8.self)
    let sourceColumns: [Int] = (0..<out).map { x + min(w - 1, $0 * w / out) }
    for row in 0..<rows {
      let sourceRow: Int = y + min(h - 1, row * h / rows)
      let source: UnsafeMutablePointer<UInt8> = raw.pixels + sourceRow * width * 4
      let target: UnsafeMutablePointer<UInt8> = pixels + row * out * 4
      for column in 0..<out {
        let from: Int = sourceColumns[column] * 4
        (target + column * 4).update(from: source + from, count: 4)
      }
    }
    return PixelImage(taking: pk_image(width: Int32(out), height: Int32(rows), pixels: pixels))
  }

  /// All pixels, row by row.
  public func rgbaBytes() -> [UInt8] {
    Array(UnsafeBufferPointer(start: raw.pixels, count: byteCount))
  }
}
