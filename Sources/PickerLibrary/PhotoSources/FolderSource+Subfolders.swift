/// A search in Folders covers the folders under the one searched: `/beach`
/// at the top finds the photos two folders down. With the library index
/// (Folders beside Photos) it is one query; otherwise the folders are
/// walked, up to `walkLimit` entries.
/// The photos below one folder, as a search of it read them.
struct BelowFolder: Sendable {
  var entries: [DirectoryEntry]
  /// Their paths from the folder, lowered: what words are matched on.
  var lowered: [String]
  /// False when the walk stopped at `FolderSource.walkLimit`.
  var complete: Bool
}

extension FolderSource {
  /// How many entries a walk reads at most; what lies past them is not
  /// searched (the results' note says so).
  static let walkLimit = 100_000

  /// The photos under `folder`'s subfolders whose path below it holds
  /// every one of `words`, as entries named by that path ("2023/beach/
  /// IMG_1.jpg"), in natural order; and whether the walk stopped short.
  func photosBelow(_ folder: FolderID?, words: [String], kinds: KindFilter) -> (
    entries: [DirectoryEntry], complete: Bool
  ) {
    // Read once a folder: each key typed filters the same list, its paths
    // lowered once.
    let key = folder ?? ""
    let all: BelowFolder
    if let known = photosBelowFolders[key] {
      all = known
    } else {
      let base = folder.map { root.appending(IdentifierCoding.decode($0)) } ?? root
      let (entries, complete) =
        index.flatMap { try? indexedBelow(base, in: $0) }.map { ($0, true) } ?? walkedBelow(base)
      all = BelowFolder(
        entries: entries, lowered: entries.map { String(decoding: $0.name, as: UTF8.self).lowercased() },
        complete: complete)
      photosBelowFolders[key] = all
    }
    var found = all.entries.indices.filter { index in words.allSatisfy { all.lowered[index].contains($0) } }.map {
      all.entries[$0]
    }
    found = Self.ofKinds(kinds.narrowed(by: self.kinds), found)
    found.sort { NaturalOrder.precedes($0.name, $1.name) }
    return (found, all.complete)
  }

  private func indexedBelow(_ base: PathBytes, in index: LibraryIndex) throws -> [DirectoryEntry] {
    let canonical = CanonicalRoot.of(base)
    let prefix = (canonical.bytes == [UInt8(ascii: "/")] ? [] : canonical.bytes) + [UInt8(ascii: "/")]
    return try index.paths(under: canonical).compactMap { path in
      guard path.bytes.starts(with: prefix) else { return nil }
      let relative = Array(path.bytes[prefix.count...])
      // Only what is below a subfolder: the folder's own photos are listed already.
      guard relative.contains(UInt8(ascii: "/")) else { return nil }
      return DirectoryEntry(name: relative, isFolder: false)
    }
  }

  private func walkedBelow(_ base: PathBytes) -> (entries: [DirectoryEntry], complete: Bool) {
    var found: [DirectoryEntry] = []
    var pending: [[UInt8]] = (try? DirectoryReader.read(base))?.filter(\.isFolder).map(\.name) ?? []
    var read = 0
    while let relative = pending.popLast() {
      guard read < Self.walkLimit, !stopped.isSet else { return (found, false) }
      guard let entries = try? DirectoryReader.read(base.appending(relative)) else { continue }
      read += entries.count
      for entry in entries {
        let path = relative + [UInt8(ascii: "/")] + entry.name
        if entry.isFolder {
          pending.append(path)
        } else {
          found.append(DirectoryEntry(name: path, isFolder: false))
        }
      }
    }
    return (found, true)
  }
}
