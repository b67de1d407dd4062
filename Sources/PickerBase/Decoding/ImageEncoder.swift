import CImaging
import Foundation

/// Encodes pixels into image files: the thumbnail cache and `picker-tui
/// thumbnail` write PNGs (one writer, png_write.c), iTerm2 pictures are
/// JPEGs. (The tests' WebP, GIF and HEIC images are made by
/// PickerTestSupport's encoder, outside the shipped picker.)
public enum ImageEncoder {
  public enum Format: Sendable {
    case jpeg(quality: Int)
    case png
  }

  public static func encode(_ image: PixelImage, as format: Format) -> [UInt8]? {
    var buffer: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status: Int32
    switch format {
    case .jpeg(let quality): status = pk_encode_jpeg(&image.raw, Int32(quality), &buffer, &size)
    // One PNG writer, the cache's (png_write.c): RGB when opaque.
    case .png: return thumbnailPNG(image)
    }
    guard status == 0, let buffer else { return nil }
    defer { pk_buffer_free(buffer) }
    return Array(UnsafeBufferPointer(start: buffer, count: size))
  }

  /// A PNG as the thumbnail cache writes it (png_write.c): RGB when opaque,
  /// Huffman-only deflate, with `text` as tEXt chunks.
  public static func thumbnailPNG(_ image: PixelImage, text: [(key: String, value: String)] = []) -> [UInt8]? {
    var buffer: UnsafeMutablePointer<UInt8>?
    var size = 0
    var error = [CChar](repeating: 0, count: 200)
    let status = withCText(text.map { ($0.key, $0.value) }) { keys, values, count in
      pk_png_encode_thumbnail(&image.raw, keys, values, count, &buffer, &size, &error, error.count)
    }
    guard status == 0, let buffer else { return nil }
    defer { pk_buffer_free(buffer) }
    return Array(UnsafeBufferPointer(start: buffer, count: size))
  }

  /// `text` as the C arrays of keys and of values png_write.c takes, for
  /// the length of `body`.
  package static func withCText<Result>(
    _ text: [(String, String)],
    _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int32) -> Result
  ) -> Result {
    let keys = text.map { strdup($0.0) }
    let values = text.map { strdup($0.1) }
    defer { (keys + values).forEach { free($0) } }
    return keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { keyPointers in
      values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
        body(keyPointers.baseAddress, valuePointers.baseAddress, Int32(text.count))
      }
    }
  }
}
