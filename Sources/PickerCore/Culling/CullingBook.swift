/// The verdicts given in this run: what tiles, the preview and compare
/// show over what the sources listed, and the undo history.
public struct CullingBook: Hashable, Sendable {
  /// By the photo's path: the latest verdict given.
  public internal(set) var given: [PathBytes: Culling] = [:]
  /// Each change, newest last: the photos it touched and what they were.
  var history: [[CullingUndo]] = []
  /// The verdicts sources listed, of the photos that have one, by path:
  /// what a selected photo no longer on screen has, for a toggle and its
  /// undo.
  var listed: [PathBytes: Culling] = [:]
  /// Folders whose XMP could not be written: said once each.
  var unwritable: Set<PathBytes> = []

  /// A change's memory for undo.
  struct CullingUndo: Hashable, Sendable {
    var path: PathBytes
    var before: Culling
    var change: CullingChange
  }

  /// Undo goes this far back.
  static let historyLimit = 200

  public init() {}

  /// Notes the verdicts of a page's photos (and its stacks' members).
  /// A photo without one is looked up only when some are kept: most
  /// libraries have few verdicts, and a sweep lists thousands of photos.
  mutating func noteListed(_ items: [PhotoItem]) {
    func note(_ photo: PhotoItem) {
      guard let path = photo.outputPath else { return }
      if !photo.culling.isEmpty {
        listed[path] = photo.culling
      } else if !listed.isEmpty {
        listed.removeValue(forKey: path)
      }
    }
    for item in items {
      if let stack = item.stack { stack.members.forEach(note) } else { note(item) }
    }
  }
}

/// One verdict to keep and write: the photo, what changed, and the whole
/// verdict after it (what sources keep).
public struct CullingWrite: Hashable, Sendable {
  public var path: PathBytes
  public var change: CullingChange
  public var culling: Culling
  public var options: XMPWriteOptions

  public init(path: PathBytes, change: CullingChange, culling: Culling, options: XMPWriteOptions = XMPWriteOptions()) {
    self.path = path
    self.change = change
    self.culling = culling
    self.options = options
  }
}
