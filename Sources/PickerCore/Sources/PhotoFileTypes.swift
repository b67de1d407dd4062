/// Recognises photo files by name, without opening them.
///
/// The listing must not touch every file before the first paint, so the
/// extension decides; decoders sniff the real format later.
public enum PhotoFileTypes {
  public static let extensions: Set<String> = [
    "jpg", "jpeg", "png", "webp", "gif", "heic", "heif", "avif",
  ]

  /// Whether a file name ends in a photo extension (any case).
  public static func isPhoto(name: [UInt8]) -> Bool {
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex,
      name.count - dot - 1 <= 4
    else { return false }
    var ext = ""
    for byte in name[(dot + 1)...] {
      guard byte < 0x80 else { return false }
      let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
      ext.unicodeScalars.append(Unicode.Scalar(lower))
    }
    return extensions.contains(ext)
  }

  /// Hidden files and folders start with a dot.
  public static func isHidden(name: [UInt8]) -> Bool {
    name.first == UInt8(ascii: ".")
  }
}
