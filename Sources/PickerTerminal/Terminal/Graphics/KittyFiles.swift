import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pictures for a kitty terminal on this machine, sent as temporary files
/// (`t=t`): the stream carries the file's name instead of the pixels in
/// base64, a third more bytes that the terminal would decode again. kitty
/// reads each file and deletes it; it only reads files in a temporary
/// folder whose name says `tty-graphics-protocol`. Files never sent, or
/// not yet read when the picker ends, are deleted here.
public final class KittyFiles {
  public let folder: String
  private let prefix: String
  private var count = 0
  /// Files written and not known to be gone.
  private var written: Set<String> = []

  public init(folder: String) {
    self.folder = folder
    prefix = folder + "/" + Self.namePrefix()
  }

  /// Where pictures go: /dev/shm (memory) where it is a writable folder,
  /// else $TMPDIR, else /tmp.
  public static func folder(environment: [String: String]) -> String {
    if access("/dev/shm", W_OK | X_OK) == 0 { return "/dev/shm" }
    if let given = environment["TMPDIR"], !given.isEmpty, access(given, W_OK | X_OK) == 0 { return given }
    return "/tmp"
  }

  /// A file of these bytes, only ours to read; nil when it cannot be made.
  public func store(_ bytes: [UInt8]) -> String? {
    count += 1
    let path = prefix + "\(count)"
    guard Self.save(bytes, to: path) else { return nil }
    written.insert(path)
    // Those kitty read (and deleted) are let go now and then.
    if count % 256 == 0 { written = written.filter { access($0, F_OK) == 0 } }
    return path
  }

  /// The file was never sent.
  public func remove(_ path: String) {
    unlink(path)
    written.remove(path)
  }

  /// Deletes every file kitty has not read yet (the picker ends).
  public func removeAll() {
    for path in written { unlink(path) }
    written.removeAll()
  }

  /// The 1x1 RGB picture of the start-up query, in `folder`; nil when it
  /// cannot be written. The caller deletes it after the query.
  public static func writeQueryFile(in folder: String) -> String? {
    let path = folder + "/" + namePrefix() + "query"
    return save([0, 0, 0], to: path) ? path : nil
  }

  private static func namePrefix() -> String {
    "picker-tui-tty-graphics-protocol-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-"
  }

  private static func save(_ bytes: [UInt8], to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var done = 0
    while done < bytes.count {
      let wrote = bytes[done...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if wrote < 0 && errno == EINTR { continue }
      guard wrote > 0 else {
        unlink(path)
        return false
      }
      done += wrote
    }
    return true
  }
}
