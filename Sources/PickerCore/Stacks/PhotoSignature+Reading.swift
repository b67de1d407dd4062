/// Signatures read from files: the picture decoded at thumbnail size, as a
/// grid tile is, so a signature costs a thumbnail's decode (an embedded
/// EXIF thumbnail or a DCT-scaled JPEG decode), never the whole photo's.
extension PhotoSignature {
  /// The longest side of the picture a signature is taken from.
  public static let thumbnailSide = 256

  /// The file's signature; nil when it cannot be decoded.
  public static func read(file path: PathBytes) -> PhotoSignature? {
    let box = PixelSize(width: thumbnailSide, height: thumbnailSide)
    guard let image = try? ImageDecoder().decode(file: path, covering: box).image else { return nil }
    return PhotoSignature(of: image.fitted(maxWidth: thumbnailSide, maxHeight: thumbnailSide))
  }
}
