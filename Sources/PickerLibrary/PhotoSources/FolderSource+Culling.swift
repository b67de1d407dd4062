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
      return cullingGiven[path.bytes] ?? cullingRead[path.bytes] ?? Culling.none
    }
  }

  /// The verdicts a page shows at once: those known, else the sidecars'
  /// read with the listing. The photos' own XMP (a header each) is read
  /// in the background, and the listing announced again when it adds
  /// anything: a first page never waits for a header.
  func shownVerdicts(of entries: [DirectoryEntry], in folder: FolderID?) -> [Culling] {
    var unread: [(path: PathBytes, entry: DirectoryEntry)] = []
    let shown = entries.map { entry -> Culling in
      guard !entry.isFolder else { return .none }
      let path = path(of: entry, in: folder)
      if let known = cullingGiven[path.bytes] ?? cullingRead[path.bytes] { return known }
      if !PhotoFileTypes.isVideo(name: entry.name), cullingReading.insert(path.bytes).inserted {
        unread.append((path, entry))
      } else if PhotoFileTypes.isVideo(name: entry.name) {
        cullingRead[path.bytes] = entry.culling?.culling ?? Culling.none
      }
      return entry.culling?.culling ?? Culling.none
    }
    if !unread.isEmpty { readVerdicts(unread) }
    return shown
  }

  /// Reads the photos' verdicts off the actor, keeps them, and says the
  /// listing changed when one differs from what its sidecar alone said.
  private func readVerdicts(_ unread: [(path: PathBytes, entry: DirectoryEntry)]) {
    let stopped = stopped
    // After the page's first frame and its first thumbnails, on one
    // thread: on two cores, headers read at once on both took a core from
    // the first paint and from the frames of keys while scrolling.
    Self.verdictReads.asyncAfter(deadline: .now() + .milliseconds(Self.verdictReadDelay)) { [weak self] in
      let read = unread.map { path, entry in
        stopped.isSet
          ? Culling.none
          : XMPCulling.ofFile(path, name: entry.name, sidecar: entry.culling, sidecarModified: entry.xmpModified)
      }
      guard let self, !stopped.isSet else { return }
      Task { await self.keepVerdicts(zip(unread, read).map { ($0.path, $0.entry, $1) }) }
    }
  }

  /// Milliseconds a page's verdicts wait before being read.
  static let verdictReadDelay = 40
  /// Where they are read, one page after another.
  static let verdictReads = DispatchQueue(label: "picker.folder-verdicts", qos: .utility)

  private func keepVerdicts(_ read: [(path: PathBytes, entry: DirectoryEntry, culling: Culling)]) {
    var changed = false
    for (path, entry, culling) in read {
      cullingReading.remove(path.bytes)
      cullingRead[path.bytes] = culling
      if culling != (entry.culling?.culling ?? Culling.none), cullingGiven[path.bytes] == nil { changed = true }
    }
    if changed { news.continuation.yield(.contentChanged) }
  }
}
