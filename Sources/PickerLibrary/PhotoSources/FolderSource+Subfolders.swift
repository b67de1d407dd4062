/// A search in Folders covers the folders under the one searched: `/beach`
/// at the top finds the photos two folders down. With the library index
/// (Folders beside Photos) it is one query; otherwise the folders are
/// walked, up to `walkLimit` entries.
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
    let base = folder.map { root.appending(IdentifierCoding.decode($0)) } ?? root
    var found: [DirectoryEntry]
    var complete = true
    if let index, let indexed = try? indexedBelow(base, words: words, in: index) {
      found = indexed
    } else {
      (found, complete) = walkedBelow(base, words: words)
    }
    found = Self.ofKinds(kinds.narrowed(by: self.kinds), found)
    found.sort { NaturalOrder.precedes($0.name, $1.name) }
    return (found, complete)
  }

  /// Matching is on the path below the folder searched, ignoring case.
  static func matches(_ relative: [UInt8], words: [String]) -> Bool {
    let text = String(decoding: relative, as: UTF8.self).lowercased()
    return words.allSatisfy { text.contains($0) }
  }

  private func indexedBelow(_ base: PathBytes, words: [String], in index: LibraryIndex) throws -> [DirectoryEntry] {
    let canonical = CanonicalRoot.of(base)
    let prefix = (canonical.bytes == [UInt8(ascii: "/")] ? [] : canonical.bytes) + [UInt8(ascii: "/")]
    return try index.paths(under: canonical).compactMap { path in
      guard path.bytes.starts(with: prefix) else { return nil }
      let relative = Array(path.bytes[prefix.count...])
      // Only what is below a subfolder: the folder's own photos are listed already.
      guard relative.contains(UInt8(ascii: "/")), Self.matches(relative, words: words) else { return nil }
      return DirectoryEntry(name: relative, isFolder: false)
    }
  }

  private func walkedBelow(_ base: PathBytes, words: [String]) -> ([DirectoryEntry], Bool) {
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
        } else if Self.matches(path, words: words) {
          found.append(DirectoryEntry(name: path, isFolder: false))
        }
      }
    }
    return (found, true)
  }
}
