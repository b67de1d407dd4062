import Foundation

extension FolderSource {
  /// Each entry's verdict: given in this run, else what its files say
  /// (read once, the missing ones on all cores: a photo's header and the
  /// sidecar found with the listing). A folder has none.
  func verdicts(of entries: [DirectoryEntry], in folder: FolderID?) -> [Culling] {
    let paths = entries.map { $0.isFolder ? nil : path(of: $0, in: folder) }
    let missing = paths.indices.filter { index in
      guard let path = paths[index] else { return false }
      return cullingGiven[path.bytes] == nil && cullingRead[path.bytes] == nil
    }
    if !missing.isEmpty {
      var read = [Culling](repeating: .none, count: missing.count)
      read.withUnsafeMutableBufferPointer { buffer in
        let shared = SharedBuffer(buffer)
        DispatchQueue.concurrentPerform(iterations: missing.count) { slot in
          let entry = entries[missing[slot]]
          shared.buffer[slot] = XMPCulling.ofFile(
            paths[missing[slot]]!, name: entry.name, sidecar: entry.culling, sidecarModified: entry.xmpModified)
        }
      }
      for (slot, index) in missing.enumerated() { cullingRead[paths[index]!.bytes] = read[slot] }
    }
    return paths.map { path in
      guard let path else { return .none }
      return cullingGiven[path.bytes] ?? cullingRead[path.bytes] ?? .none
    }
  }
}
