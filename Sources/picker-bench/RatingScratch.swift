import Foundation
import PickerTUI

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of hard links to a bench folder's files, for a run that
/// writes sidecars: the bench data itself stays as it was.
struct RatingScratch {
  let path: String

  init(linking folder: String) throws {
    path = NSTemporaryDirectory() + "picker-bench-rate-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasSuffix(".xmp") {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder), !isFolder.boolValue
      else { continue }
      guard link(folder + "/" + name, path + "/" + name) == 0 else {
        throw BenchExit(code: 1, message: "cannot link \(name) into \(path): errno \(errno)")
      }
    }
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// For each photo rated once, milliseconds from its key being due
  /// (uptime clock) to its sidecar's mtime (wall clock).
  static func onDisk(_ rated: [(path: PathBytes, due: UInt64)]) -> [Double] {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let wallNow = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    let uptimeNow = Int64(DispatchTime.now().uptimeNanoseconds)
    var seen: [PathBytes: Int] = [:]
    for entry in rated { seen[entry.path, default: 0] += 1 }
    return rated.compactMap { entry in
      guard seen[entry.path] == 1 else { return nil }
      var info = stat()
      guard stat(String(decoding: entry.path.bytes, as: UTF8.self) + ".xmp", &info) == 0 else { return nil }
      let written = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
      let dueWall = wallNow - (uptimeNow - Int64(entry.due))
      return Double(written - dueWall) / 1e6
    }
  }
}
