import CImaging

/// An image file format, told by its first bytes (never by its name).
public enum ImageFormat: String, Sendable {
  case jpeg, png, webp, gif, heif, tiff, jxl, raw, bmp, video

  package init?(_ raw: pk_format) {
    switch raw {
    case PK_FORMAT_JPEG: self = .jpeg
    case PK_FORMAT_PNG: self = .png
    case PK_FORMAT_WEBP: self = .webp
    case PK_FORMAT_GIF: self = .gif
    case PK_FORMAT_HEIF: self = .heif
    case PK_FORMAT_TIFF: self = .tiff
    case PK_FORMAT_JXL: self = .jxl
    case PK_FORMAT_RAW: self = .raw
    case PK_FORMAT_BMP: self = .bmp
    case PK_FORMAT_VIDEO: self = .video
    default: return nil
    }
  }

  /// The format of these first bytes, or nil.
  public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
    ImageFormat(bytes.withUnsafeBufferPointer { pk_sniff_format($0.baseAddress, $0.count) })
  }
}

/// Why an image could not be shown; the message is for the user.
public struct ImageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  /// The bytes were read and are not a usable image: retrying before the
  /// file changes is pointless. False for errors of access.
  public var isContentError: Bool
  public init(_ message: String, isContentError: Bool = false) {
    self.message = message
    self.isContentError = isContentError
  }
  public var description: String { message }
}

/// A decoded image and how it was obtained.
public struct DecodedImage: Sendable {
  public var image: PixelImage
  public var format: ImageFormat?
  /// The size of the full image as stored (before orientation).
  public var sourceSize: PixelSize
  /// The EXIF orientation that was applied (1: none).
  public var orientation: Int
  /// True when an embedded (EXIF or HEIF) thumbnail stood in for the image.
  public var usedEmbeddedThumbnail: Bool
  /// The JPEG DCT scale used, as 1/n.
  public var scaleDenominator: Int
}

/// Decodes image files and bytes into pixels at least as large as a box,
/// the right way up. Safe to call from several threads at once.
public struct ImageDecoder: Sendable {
  /// Images whose header claims more pixels are refused before decoding.
  public var maxPixels: Int

  public init(maxPixels: Int = 100_000_000) { self.maxPixels = maxPixels }

  /// Decodes the file at `path`; non-regular files (a FIFO, a device) and
  /// folders are refused without blocking.
  /// `enough`, when given, is a smaller box an embedded thumbnail only has
  /// to cover to be used.
  public func decode(file path: PathBytes, covering box: PixelSize, enough: PixelSize? = nil) throws(ImageDecodingError)
    -> DecodedImage
  {
    var options = makeOptions(box, enough: enough)
    var raw = pk_image()
    let status = (path.bytes + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { pk_decode_file($0.baseAddress, &options, &raw) }
    }
    return try finish(status, options, raw)
  }

  /// Decodes image bytes held in memory (a data: URL, a download).
  public func decode(bytes: [UInt8], covering box: PixelSize, enough: PixelSize? = nil) throws(ImageDecodingError)
    -> DecodedImage
  {
    var options = makeOptions(box, enough: enough)
    var raw = pk_image()
    let status = bytes.withUnsafeBufferPointer { pk_decode_memory($0.baseAddress, $0.count, &options, &raw) }
    return try finish(status, options, raw)
  }

  /// Decodes the EXIF thumbnail in a JPEG's first bytes (a ranged read of a
  /// remote photo), whatever its size; never the truncated photo.
  public func decode(head bytes: [UInt8], covering box: PixelSize) throws(ImageDecodingError) -> DecodedImage {
    var options = makeOptions(box, enough: nil)
    options.embedded_only = 1
    var raw = pk_image()
    let status = bytes.withUnsafeBufferPointer { pk_decode_memory($0.baseAddress, $0.count, &options, &raw) }
    return try finish(status, options, raw)
  }

  /// Whether a JPEG's first bytes hold a whole EXIF thumbnail that agrees
  /// with the photo: then they are enough for a tile.
  public static func headHasUsableThumbnail(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { pk_jpeg_head_has_usable_thumbnail($0.baseAddress, $0.count) } == 1
  }

  private func makeOptions(_ box: PixelSize, enough: PixelSize?) -> pk_decode_options {
    var options = pk_decode_options()
    options.need_width = Int32(clamping: box.width)
    options.need_height = Int32(clamping: box.height)
    options.enough_width = Int32(clamping: enough?.width ?? 0)
    options.enough_height = Int32(clamping: enough?.height ?? 0)
    options.max_pixels = Int64(maxPixels)
    return options
  }

  private func finish(_ status: Int32, _ options: pk_decode_options, _ raw: pk_image) throws(ImageDecodingError)
    -> DecodedImage
  {
    guard status == 0, raw.pixels != nil else {
      var copy = options
      let message = withUnsafeBytes(of: &copy.error) { buffer in
        String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
      }
      throw ImageDecodingError(
        message.isEmpty ? "cannot read image" : message, isContentError: options.content_error != 0)
    }
    return DecodedImage(
      image: PixelImage(taking: raw), format: ImageFormat(options.format),
      sourceSize: PixelSize(width: Int(options.source_width), height: Int(options.source_height)),
      orientation: Int(options.orientation), usedEmbeddedThumbnail: options.used_embedded_thumbnail != 0,
      scaleDenominator: Int(options.scale_denominator))
  }
}
