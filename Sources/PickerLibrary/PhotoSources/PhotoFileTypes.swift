/// Recognises photo files by name, without opening them.
///
/// The listing must not touch every file before the first paint, so the
/// extension decides; decoders sniff the real format later.
public enum PhotoFileTypes {
  public static let extensions = Set<String>([
    "jpg", "jpeg", "jpe", "jfif", "png", "webp", "gif", "heic", "heif", "heics", "heifs", "avif", "avifs", "tif",
    "tiff", "jxl", "bmp", "dib",
  ]).union(rawExtensions)
  /// Camera RAW: shown from the preview the camera embedded.
  public static let rawExtensions: Set<String> = [
    "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "raf", "pef", "srw", "rwl", "3fr",
    "erf", "kdc", "dcr", "mrw", "x3f", "iiq", "mos",
  ]
  /// Videos, listed with the photos by the local sources (Folders, Photos,
  /// given paths); a frame is their thumbnail. Remote sources list photos
  /// only: a frame would cost fetching the whole file.
  public static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "3gp", "mkv", "webm", "avi"]

  private static let longestExtension = extensions.union(videoExtensions).map(\.utf8.count).max()!

  private static let extensionBytes: [[UInt8]] = extensions.map { Array($0.utf8) }
  private static let videoExtensionBytes: [[UInt8]] = videoExtensions.map { Array($0.utf8) }
  private static let rawExtensionBytes: [[UInt8]] = rawExtensions.map { Array($0.utf8) }

  /// Whether a file name ends in a photo extension (any case). Runs once per
  /// directory entry, so it compares bytes and allocates nothing.
  public static func isPhoto(name: [UInt8]) -> Bool { hasExtension(name, among: extensionBytes) }

  /// Whether a file name ends in a video extension (any case).
  public static func isVideo(name: [UInt8]) -> Bool { hasExtension(name, among: videoExtensionBytes) }

  /// Whether a file name ends in a camera RAW extension (any case).
  public static func isRaw(name: [UInt8]) -> Bool { hasExtension(name, among: rawExtensionBytes) }

  /// What a local listing shows: photos and videos.
  public static func isShown(name: [UInt8]) -> Bool { isPhoto(name: name) || isVideo(name: name) }

  private static func hasExtension(_ name: [UInt8], among extensionBytes: [[UInt8]]) -> Bool {
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return false }
    let length = name.count - dot - 1
    guard length >= 3 && length <= longestExtension else { return false }
    return extensionBytes.contains { candidate in
      guard candidate.count == length else { return false }
      for offset in 0..<length {
        let byte = name[dot + 1 + offset]
        let lower = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
        if lower != candidate[offset] { return false }
      }
      return true
    }
  }

  /// Hidden files and folders start with a dot.
  public static func isHidden(name: [UInt8]) -> Bool {
    name.first == UInt8(ascii: ".")
  }
}
