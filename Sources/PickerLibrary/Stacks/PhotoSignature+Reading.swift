/// Signatures read from files: the picture decoded at thumbnail size, as a
/// grid tile is, so a signature costs a thumbnail's decode (an embedded
/// EXIF thumbnail or a DCT-scaled JPEG decode), never the whole photo's.
extension PhotoSignature {
  /// The longest side of the picture a signature is taken from.
  public static let thumbnailSide = 256

  /// A camera's own EXIF thumbnail (160 x 120) is enough: signatures taken
  /// from 160 px judge the burst set as well as from 256 px (`picker-bench
  /// stacks --thumbnail-size 160`: no wrong decision, every sharp frame
  /// found), and it spares decoding the photo itself.
  public static let enoughFromCamera = PixelSize(width: 160, height: 120)

  /// The file's signature; nil when it cannot be decoded.
  public static func read(file path: PathBytes) -> PhotoSignature? {
    let box = PixelSize(width: thumbnailSide, height: thumbnailSide)
    guard let image = try? ImageDecoder().decode(file: path, covering: box, enough: enoughFromCamera).image
    else { return nil }
    return PhotoSignature(of: image.fitted(maxWidth: thumbnailSide, maxHeight: thumbnailSide))
  }
}
