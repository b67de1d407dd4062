import CImaging

/// Encodes pixels into image files: the thumbnail cache writes PNGs, iTerm2
/// pictures are JPEGs. (The tests' WebP, GIF and HEIC images are made by
/// PickerTestSupport's encoder, outside the shipped picker.)
public enum ImageEncoder {
  public enum Format: Sendable {
    case jpeg(quality: Int)
    case jpegGreyscale(quality: Int)
    case png
  }

  public static func encode(_ image: PixelImage, as format: Format) -> [UInt8]? {
    var buffer: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status: Int32
    switch format {
    case .jpeg(let quality): status = pk_encode_jpeg(&image.raw, Int32(quality), &buffer, &size)
    case .jpegGreyscale(let quality): status = pk_encode_jpeg_greyscale(&image.raw, Int32(quality), &buffer, &size)
    case .png: status = pk_encode_png(&image.raw, &buffer, &size)
    }
    guard status == 0, let buffer else { return nil }
    defer { pk_buffer_free(buffer) }
    return Array(UnsafeBufferPointer(start: buffer, count: size))
  }
}
