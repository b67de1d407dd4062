import Foundation

/// A library root as the index stores it: absolute, links resolved, so
/// `index .` in a folder and `index FOLDER` from elsewhere are the same
/// rows, and a root given relative never names other folders from another
/// working directory.
public enum CanonicalRoot {
  public static func of(_ root: PathBytes) -> PathBytes {
    let path = root.bytes.map { CChar(bitPattern: $0) } + [0]
    if let resolved = realpath(path, nil) {
      defer { free(resolved) }
      return PathBytes(Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }
    // Not there (a root unplugged): absolute all the same.
    if root.bytes.first == UInt8(ascii: "/") { return root }
    return PathBytes(Array(FileManager.default.currentDirectoryPath.utf8) + [UInt8(ascii: "/")] + root.bytes)
  }
}
