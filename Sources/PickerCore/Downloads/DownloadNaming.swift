import Foundation

/// Names for downloaded files: from the photo's title (or the URL's last
/// component), made safe to be one component in the download folder.
public enum DownloadNaming {
  static let maxNameBytes = 150

  /// A single path component: no "/", no NUL or control characters, no
  /// leading dots (hidden files, ".."), not empty, at most 150 bytes; with
  /// the URL's extension when the title has none.
  public static func fileName(title: [UInt8], url: String) -> [UInt8] {
    var name = clean(title)
    let urlName = clean(
      Array((URLComponents(string: url)?.path ?? url).split(separator: "/").last.map(String.init)?.utf8 ?? "".utf8))
    if name.isEmpty { name = urlName }
    if name.isEmpty { name = Array("photo".utf8) }
    if splitExtension(name).ext.isEmpty {
      let ext = splitExtension(urlName).ext
      if !ext.isEmpty, ext.count <= 6 { name += [UInt8(ascii: ".")] + ext }
    }
    return truncated(name)
  }

  /// "Beach.jpg", then "Beach (2).jpg", "Beach (3).jpg"…
  public static func candidate(_ name: [UInt8], attempt: Int) -> [UInt8] {
    guard attempt > 1 else { return name }
    let (stem, ext) = splitExtension(name)
    let suffix = Array(" (\(attempt))".utf8)
    return stem + suffix + (ext.isEmpty ? [] : [UInt8(ascii: ".")] + ext)
  }

  static func clean(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes.map { byte -> UInt8 in
      byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7f ? UInt8(ascii: "_") : byte
    }
    // Invalid UTF-8 would be unprintable for the next program; keep valid text.
    out = Array(String(decoding: out, as: UTF8.self).utf8)
    while let first = out.first, first == UInt8(ascii: ".") || first == UInt8(ascii: " ") { out.removeFirst() }
    while let last = out.last, last == UInt8(ascii: " ") { out.removeLast() }
    return out
  }

  static func splitExtension(_ name: [UInt8]) -> (stem: [UInt8], ext: [UInt8]) {
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot < name.count - 1 else { return (name, []) }
    return (Array(name[..<dot]), Array(name[(dot + 1)...]))
  }

  /// Cuts the stem so the whole name fits, on a character boundary.
  static func truncated(_ name: [UInt8]) -> [UInt8] {
    guard name.count > maxNameBytes else { return name }
    let (stem, ext) = splitExtension(name)
    let room = maxNameBytes - (ext.isEmpty ? 0 : ext.count + 1)
    var cut = Array(stem.prefix(max(1, room)))
    while !cut.isEmpty, String(validating: cut, as: UTF8.self) == nil { cut.removeLast() }
    return cut + (ext.isEmpty ? [] : [UInt8(ascii: ".")] + ext)
  }
}
