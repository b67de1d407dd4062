#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One entry of a directory: its name and whether it is a folder.
struct DirectoryEntry: Sendable {
  var name: [UInt8]
  var isFolder: Bool
  /// When the photo was taken: read for a listing sorted by date.
  var taken: TakenDate?
  /// The burst the shot belongs to (`PhotoMetadata.burstID`), read with the date.
  var burstID: String?
  /// A still with its Live Photo's MOV beside it (the MOV is not listed).
  var isLive = false
  /// A video's length, when its header was read.
  var videoSeconds: Double?
  /// What a day header calls where it was taken, read with the date.
  var placeName: String?
  /// Stars, reject and label, when a sidecar or the header was read.
  var culling: XMPVerdict?
  /// Its XMP sidecar's mtime (ns), when it has one: the newer file's
  /// verdict wins.
  var xmpModified: Int64?
}

/// Reads directories with readdir, trusting d_type so that a folder of
/// 100,000 photos is listed without a stat per file. Only links and entries
/// of unknown type are stat'ed (following the link).
public enum DirectoryReader {
  /// The visible photos and folders in `path`; hidden entries and other files
  /// are skipped.
  static func read(_ path: PathBytes) throws -> [DirectoryEntry] {
    var sidecars: [[UInt8]] = []
    return try read(path, xmpSidecars: &sidecars)
  }

  /// The same, and the names of the XMP files among the others skipped.
  static func read(_ path: PathBytes, xmpSidecars: inout [[UInt8]]) throws -> [DirectoryEntry] {
    var entries: [DirectoryEntry] = []
    try forEachEntry(of: path) { name, type in
      if PhotoFileTypes.isHidden(name: name) { return }  // also skips . and ..
      if name.count > 4, name.suffix(4).map(Sidecars.lowercased).elementsEqual(".xmp".utf8) {
        xmpSidecars.append(name)
        return
      }
      var isFolder: Bool
      switch type {
      case Int32(DT_DIR): isFolder = true
      case Int32(DT_REG): isFolder = false
      default:
        guard let kind = fileKind(path.appending(name)) else { return }
        isFolder = kind == .folder
      }
      if isFolder || PhotoFileTypes.isShown(name: name) {
        entries.append(DirectoryEntry(name: name, isFolder: isFolder))
      }
    }
    return entries
  }

  /// Every entry of `path` but . and .., hidden ones and other files
  /// included (the library scan looks for `.nomedia`).
  static func readAll(_ path: PathBytes) throws -> [DirectoryEntry] {
    var entries: [DirectoryEntry] = []
    try forEachEntry(of: path) { name, type in
      if name == [0x2E] || name == [0x2E, 0x2E] { return }
      let isFolder =
        type == Int32(DT_DIR)
        || ((type == Int32(DT_LNK) || type == Int32(DT_UNKNOWN)) && fileKind(path.appending(name)) == .folder)
      entries.append(DirectoryEntry(name: name, isFolder: isFolder))
    }
    return entries
  }

  /// Calls `body` with each entry's name and d_type, in readdir's order.
  private static func forEachEntry(of path: PathBytes, _ body: (_ name: [UInt8], _ type: Int32) -> Void) throws {
    let cPath = path.bytes + [0]
    guard
      let dir = cPath.withUnsafeBufferPointer({
        opendir($0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: $0.count) { $0 })
      })
    else {
      throw SourceError("cannot open \(Sanitizer.sanitize(path.bytes)): \(String(cString: strerror(errno)))")
    }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: UInt8.self, capacity: 256) { bytes in
          Array(
            UnsafeBufferPointer(
              start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
        }
      }
      body(name, Int32(entry.pointee.d_type))
    }
  }

  public enum FileKind { case folder, file }

  /// Whether `path` is, after following links, a regular file: a FIFO or a
  /// device put in a photo's place is no photo to print.
  public static func isRegularFile(_ path: PathBytes) -> Bool {
    guard let info = status(path) else { return false }
    return (info.st_mode & S_IFMT) == S_IFREG
  }

  /// What `path` is after following links; nil when it does not exist.
  public static func fileKind(_ path: PathBytes) -> FileKind? {
    guard let info = status(path) else { return nil }
    return (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .file
  }

  /// The modification time in seconds, or 0 when it cannot be read.
  static func modificationTime(_ path: PathBytes) -> Int {
    status(path).map(modificationTime(of:)) ?? 0
  }

  package static func modificationTime(of info: stat) -> Int {
    #if canImport(Darwin)
      return Int(info.st_mtimespec.tv_sec)
    #else
      return Int(info.st_mtim.tv_sec)
    #endif
  }

  /// Why `path` cannot be reached ("no such file or directory"), or nil
  /// when it exists.
  public static func unreachableReason(_ path: PathBytes) -> String? {
    guard case .failure(let error) = statusOrError(path) else { return nil }
    return error.message.lowercased()
  }

  static func status(_ path: PathBytes) -> stat? {
    try? statusOrError(path).get()
  }

  /// stat(2), following links, or strerror of why it failed (read at once:
  /// any later call may change errno).
  package static func statusOrError(_ path: PathBytes) -> Result<stat, StatError> {
    var info = stat()
    let result = (path.bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) }
    }
    return result == 0 ? .success(info) : .failure(StatError(message: String(cString: strerror(errno))))
  }

  package struct StatError: Error {
    package var message: String
  }
}
