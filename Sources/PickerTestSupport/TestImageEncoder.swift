import CImaging
import CTestEncoders
import PickerCore

/// Encodes the tests' images in every format the picker reads: JPEG and
/// PNG with the picker's own encoders, WebP, GIF and HEIC with encoders
/// that stay out of the shipped picker (CTestEncoders).
public enum TestImageEncoder {
  public enum Format: Sendable {
    case jpeg(quality: Int)
    case jpegGreyscale(quality: Int)
    case png
    case webp(quality: Int)
    /// Every frame must have the first one's size.
    case gif(moreFrames: [PixelImage])
    /// With a thumbnail of this bounding size embedded when > 0 (< 0: made
    /// from the picture turned a quarter, as some tools write it).
    case heic(thumbnailSize: Int)
  }

  public static func encode(_ image: PixelImage, as format: Format) -> [UInt8]? {
    var buffer: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status: Int32
    switch format {
    case .jpeg(let quality): return ImageEncoder.encode(image, as: .jpeg(quality: quality))
    case .jpegGreyscale(let quality): status = pk_encode_jpeg_greyscale(&image.raw, Int32(quality), &buffer, &size)
    case .png: return ImageEncoder.encode(image, as: .png)
    case .webp(let quality): status = pk_encode_webp(&image.raw, Int32(quality), &buffer, &size)
    case .heic(let thumbnailSize): status = pk_encode_heic(&image.raw, Int32(thumbnailSize), &buffer, &size)
    case .gif(let moreFrames):
      let frames = [image.raw] + moreFrames.map(\.raw)
      status = frames.withUnsafeBufferPointer { pk_encode_gif($0.baseAddress, Int32($0.count), &buffer, &size) }
    }
    guard status == 0, let buffer else { return nil }
    defer { pk_buffer_free(buffer) }
    return Array(UnsafeBufferPointer(start: buffer, count: size))
  }
}
