import CImaging
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thumbnail cache every freedesktop desktop shares
/// (https://specifications.freedesktop.org/thumbnail-spec/): PNGs named by
/// the MD5 of the file's URI, with the URI and the file's mtime inside.
/// We read what other programs made and write what we make, so a folder
/// browsed once opens fast in any of them, and in the picker the next time.
public struct FreedesktopThumbnailCache: Sendable {
  /// The spec's sizes: thumbnails fit in a square of this many pixels.
  public enum Flavor: String, Sendable, CaseIterable {
    case normal, large
    public var size: Int { self == .normal ? 128 : 256 }
  }

  /// `$XDG_CACHE_HOME/thumbnails`.
  public let root: String

  public init(root: String) { self.root = root }

  /// The cache of this user, as the environment says.
  public static func forCurrentUser(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> FreedesktopThumbnailCache
  {
    FreedesktopThumbnailCache(root: XDGFolders.cacheHome(environment: environment) + "/thumbnails")
  }

  /// The folder of failure entries: the spec gives each program its own.
  public var failureFolder: String { root + "/fail/picker-tui-" + pickerVersion }

  /// What identifies a file in the cache: its URI (the MD5 of which names
  /// the entry) and its modification time (which tells a stale entry).
  public struct Entry: Hashable, Sendable {
    public var uri: String
    public var mtime: Int
    /// The file's size when the entry was taken (not stored in the cache).
    public var size: Int

    public init(uri: String, mtime: Int, size: Int = 0) {
      self.uri = uri
      self.mtime = mtime
      self.size = size
    }

    public var name: String { Self.md5(uri) + ".png" }

    static func md5(_ text: String) -> String {
      var hex = [CChar](repeating: 0, count: 33)
      Array(text.utf8).withUnsafeBufferPointer { pk_md5_hex($0.baseAddress, $0.count, &hex) }
      return FreedesktopThumbnailCache.string(hex)
    }
  }

  /// The entry for a local file, or why it cannot be stat'ed.
  public func entry(for path: PathBytes) -> Result<Entry, ImageDecodingError> {
    let absolute = Self.absolute(path)
    switch Self.status(absolute) {
    case .failure(let error): return .failure(error)
    case .success(let info):
      return .success(Entry(uri: Self.fileURI(absolute), mtime: Self.mtime(info), size: Int(info.st_size)))
    }
  }

  /// Whether the file is as it was when `entry` was taken and has not
  /// changed for two seconds: mtimes count whole seconds, so an entry for
  /// a file still being written could otherwise match its final version.
  public func isSettled(_ path: PathBytes, as entry: Entry) -> Bool {
    guard case .success(let info) = Self.status(Self.absolute(path)) else { return false }
    return Self.mtime(info) == entry.mtime && Int(info.st_size) == entry.size
      && Int(time(nil)) - entry.mtime >= 2
  }

  private static func status(_ path: PathBytes) -> Result<stat, ImageDecodingError> {
    DirectoryReader.statusOrError(path).mapError { ImageDecodingError($0.message) }
  }

  private static func mtime(_ info: stat) -> Int { DirectoryReader.modificationTime(of: info) }

  public func path(of entry: Entry, flavor: Flavor) -> String { root + "/" + flavor.rawValue + "/" + entry.name }
  public func failurePath(of entry: Entry) -> String { failureFolder + "/" + entry.name }

  /// The cached thumbnail when one exists for this very file and mtime.
  public func thumbnail(for entry: Entry, flavor: Flavor) -> PixelImage? {
    guard let bytes = FileIO.readSmallFile(path(of: entry, flavor: flavor)), Self.matches(bytes, entry) else {
      return nil
    }
    return try? ImageDecoder().decode(bytes: bytes, covering: PixelSize(width: flavor.size, height: flavor.size)).image
  }

  /// The message of an earlier failure to thumbnail this file, when the file
  /// has not changed since.
  public func failure(for entry: Entry) -> String? {
    guard let bytes = FileIO.readSmallFile(failurePath(of: entry)), Self.matches(bytes, entry) else { return nil }
    return Self.text(bytes, key: "X-Picker-Error") ?? "cannot read image"
  }

  /// Stores a thumbnail (already fitted to the flavor's size).
  public func store(_ image: PixelImage, for entry: Entry, flavor: Flavor) throws(ImageDecodingError) {
    try write(image, to: path(of: entry, flavor: flavor), keys: keys(for: entry))
  }

  /// Records that the file cannot be thumbnailed, so it is not retried.
  public func storeFailure(_ message: String, for entry: Entry) throws(ImageDecodingError) {
    let pixel = PixelImage(width: 1, height: 1, rgba: [0, 0, 0, 0])
    try write(pixel, to: failurePath(of: entry), keys: keys(for: entry) + [("X-Picker-Error", message)])
  }

  private func keys(for entry: Entry) -> [(String, String)] {
    [("Thumb::URI", entry.uri), ("Thumb::MTime", String(entry.mtime)), ("Software", "picker-tui " + pickerVersion)]
  }

  /// Writes to a temporary file in the same folder, then renames it into
  /// place, so no reader ever sees half a PNG. Folders 0700, files 0600.
  private func write(_ image: PixelImage, to path: String, keys: [(String, String)]) throws(ImageDecodingError) {
    let folder = (path as NSString).deletingLastPathComponent
    guard Self.makeFolders(folder, below: root) else {
      throw ImageDecodingError("cannot create \(folder): \(String(cString: strerror(errno)))")
    }
    let temporary = path + ".picker-tui-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    var error = [CChar](repeating: 0, count: 200)
    let status = ImageEncoder.withCText(keys) { cKeys, cValues, count in
      pk_png_write_file(temporary, &image.raw, cKeys, cValues, count, &error, error.count)
    }
    guard status == 0 else {
      unlink(temporary)
      throw ImageDecodingError("cannot write thumbnail: \(Self.string(error))")
    }
    guard rename(temporary, path) == 0 else {
      let message = String(cString: strerror(errno))
      unlink(temporary)
      throw ImageDecodingError("cannot write thumbnail: \(message)")
    }
  }

  private static func matches(_ png: [UInt8], _ entry: Entry) -> Bool {
    text(png, key: "Thumb::URI") == entry.uri && text(png, key: "Thumb::MTime").flatMap { Int($0) } == entry.mtime
  }

  static func text(_ png: [UInt8], key: String) -> String? {
    var value = [CChar](repeating: 0, count: 4096)
    var length = png.withUnsafeBufferPointer { pk_png_text($0.baseAddress, $0.count, key, &value, value.count) }
    if length >= value.count {
      // A long URI: ask again with room for all of it.
      value = [CChar](repeating: 0, count: Int(length) + 1)
      length = png.withUnsafeBufferPointer { pk_png_text($0.baseAddress, $0.count, key, &value, value.count) }
    }
    return length < 0 ? nil : string(value)
  }

  /// Creates `folder` and the missing folders between it and `root`'s
  /// parent, each 0700 as the spec asks.
  static func makeFolders(_ folder: String, below root: String) -> Bool {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) { return isFolder.boolValue }
    let parent = (folder as NSString).deletingLastPathComponent
    if parent != folder && !parent.isEmpty && folder != (root as NSString).deletingLastPathComponent {
      guard makeFolders(parent, below: root) else { return false }
    }
    return mkdir(folder, 0o700) == 0 || errno == EEXIST
  }

  /// The path made absolute against the working folder, with `.`, `..` and
  /// empty components resolved by name, as GLib programs canonicalise paths
  /// before naming thumbnails (links are not followed, as they do not).
  static func absolute(_ path: PathBytes) -> PathBytes {
    var bytes = path.bytes
    if bytes.first != UInt8(ascii: "/") {
      bytes = Array(FileManager.default.currentDirectoryPath.utf8) + [UInt8(ascii: "/")] + bytes
    }
    var parts: [ArraySlice<UInt8>] = []
    for part in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
      if part.elementsEqual([UInt8(ascii: ".")]) { continue }
      if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
        _ = parts.popLast()
        continue
      }
      parts.append(part)
    }
    if parts.isEmpty { return PathBytes("/") }
    return PathBytes(parts.reduce(into: [UInt8]()) { $0 += [UInt8(ascii: "/")] + $1 })
  }

  /// The `file://` URI of an absolute path, escaped by GLib itself so our
  /// names match other programs' names.
  static func fileURI(_ path: PathBytes) -> String {
    var out = [CChar](repeating: 0, count: path.bytes.count * 3 + 16)
    let length = (path.bytes + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { pk_file_uri($0.baseAddress, &out, out.count) }
    }
    return length < 0 ? "file://" + path.lossyString : Self.string(out)
  }

  static func string(_ cString: [CChar]) -> String {
    String(decoding: cString.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

}
