/// A file path as the raw bytes the file system uses.
///
/// Names on disk need not be valid UTF-8; a picked path must reach stdout
/// byte for byte, so paths are kept as bytes and only turned into text
/// (sanitised) for the screen.
public struct PathBytes: Hashable, Sendable {
  public var bytes: [UInt8]

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Hashes the bytes in one go: an array hashes element by element, which
  /// made paths the hot spot of every thumbnail lookup.
  public func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }
  public init(_ string: String) { self.bytes = Array(string.utf8) }

  /// The path as text, with invalid UTF-8 replaced; for labels and ids only.
  public var lossyString: String { String(decoding: bytes, as: UTF8.self) }

  /// The path joined with one more component, with exactly one slash between.
  public func appending(_ component: [UInt8]) -> PathBytes {
    if bytes.isEmpty { return PathBytes(component) }
    // One array made, not one a `+` (listings join a path a photo).
    var joined: [UInt8] = []
    joined.reserveCapacity(bytes.count + 1 + component.count)
    joined.append(contentsOf: bytes)
    if bytes.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
    joined.append(contentsOf: component)
    return PathBytes(joined)
  }

  /// The folder holding the file: the path less its last component ("/"
  /// for a file at the top, "." for a bare name).
  public var parentFolder: PathBytes {
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return PathBytes(".") }
    return slash == 0 ? PathBytes("/") : PathBytes(Array(bytes[..<slash]))
  }

  /// The last component (the file name), ignoring trailing slashes.
  public var lastComponent: [UInt8] {
    var end = bytes.endIndex
    while end > bytes.startIndex + 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    let slice = bytes[..<end]
    if let slash = slice.lastIndex(of: UInt8(ascii: "/")), slash + 1 < end {
      return Array(slice[(slash + 1)...])
    }
    return Array(slice)
  }
}
