import Foundation

/// Files only the user may read: credentials, the log, downloads. Folders
/// are made 0700 and files 0600 from the start (never chmod-ed after, so
/// there is no moment they are readable by others).
public enum PrivateFiles {
  /// Creates `folder` and its missing parents, the new ones 0700.
  public static func makeFolder(_ folder: String) -> Bool {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) { return isFolder.boolValue }
    let parent = (folder as NSString).deletingLastPathComponent
    if !parent.isEmpty && parent != folder && parent != "/" {
      guard makeFolder(parent) else { return false }
    }
    return mkdir(folder, 0o700) == 0 || errno == EEXIST
  }

  /// Replaces `path` with `bytes` atomically: a 0600 temporary file beside
  /// it, then rename.
  public static func write(_ bytes: [UInt8], to path: String) throws(SourceError) {
    let folder = (path as NSString).deletingLastPathComponent
    guard makeFolder(folder) else { throw SourceError("cannot create \(folder)") }
    let temporary = "\(path).\(getpid()).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { throw SourceError("cannot write \(path): \(String(cString: strerror(errno)))") }
    let written = FileIO.writeAll(fd, bytes)
    let closed = close(fd) == 0
    guard written, closed, rename(temporary, path) == 0 else {
      unlink(temporary)
      throw SourceError("cannot write \(path)")
    }
  }

  /// `$XDG_STATE_HOME/picker-tui`, else `~/.local/state/picker-tui`.
  public static func stateFolder(environment: [String: String]) -> String {
    XDGFolders.stateHome(environment: environment) + "/picker-tui"
  }

  /// `$XDG_CACHE_HOME/picker-tui`, else `~/.cache/picker-tui`.
  public static func cacheFolder(environment: [String: String]) -> String {
    XDGFolders.cacheHome(environment: environment) + "/picker-tui"
  }

  /// `$XDG_CONFIG_HOME/picker-tui`, else `~/.config/picker-tui`.
  public static func configFolder(environment: [String: String]) -> String {
    XDGFolders.configHome(environment: environment) + "/picker-tui"
  }
}
