import Foundation

/// The picks of a running picker as they are kept on disk, so that a cancel,
/// a hang-up, a kill or a crash loses nothing: `--resume` (or R when the
/// footer offers it) brings them back. Bytes (titles, paths) are stored as
/// base64, so any name survives exactly.
public struct SelectionJournal: Codable, Hashable, Sendable {
  public struct Entry: Codable, Hashable, Sendable {
    public var source: String
    public var item: String
    public var title: String
    /// A local file's path (base64).
    public var path: String?
    /// A remote original: its URL and the source that fetches it.
    public var url: String?
    public var urlSource: String?
  }

  public static let currentVersion = 1
  public var version = Self.currentVersion
  public var picks: [Entry]
  /// The run the picks were made in: its sources and their roots
  /// (`JournalFile.run`). Picks are offered only to a run of the same.
  public var run: String?

  public init(_ selection: Selection, run: String? = nil) {
    self.run = run
    picks = selection.photos.map { photo in
      var entry = Entry(
        source: photo.key.sourceID, item: photo.key.itemID, title: Data(photo.title).base64EncodedString())
      switch photo.output {
      case .local(let path): entry.path = Data(path.bytes).base64EncodedString()
      case .remote(let source, let url):
        entry.url = url
        entry.urlSource = source
      }
      return entry
    }
  }

  /// The picks as the selection holds them; entries that do not make sense
  /// (hand-edited, from another version) are left out.
  public var photos: [PickedPhoto] {
    picks.compactMap { entry in
      guard let title = Data(base64Encoded: entry.title) else { return nil }
      let key = SelectionKey(sourceID: entry.source, itemID: entry.item)
      if let encoded = entry.path, let path = Data(base64Encoded: encoded), !path.isEmpty {
        return PickedPhoto(key: key, title: Array(title), outputPath: PathBytes(Array(path)))
      }
      if let url = entry.url, let source = entry.urlSource {
        return PickedPhoto(key: key, title: Array(title), output: .remote(source: source, url: url))
      }
      return nil
    }
  }

  public func encoded() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Array((try? encoder.encode(self)) ?? Data())
  }

  /// Nil for anything that is not a journal of this version.
  public static func decode(_ bytes: [UInt8]) -> SelectionJournal? {
    guard let journal = try? JSONDecoder().decode(SelectionJournal.self, from: Data(bytes)),
      journal.version == currentVersion
    else { return nil }
    return journal
  }
}

/// Picks of an unfinished run that can be restored in this one.
public struct ResumeOffer: Hashable, Sendable {
  /// In pick order, only those whose source is open and whose file exists.
  public var photos: [PickedPhoto]
  /// Picks that cannot come back: their file is gone or their source is not
  /// open in this run.
  public var skipped: Int

  public init(photos: [PickedPhoto], skipped: Int) {
    self.photos = photos
    self.skipped = skipped
  }

  /// The journal's picks that this run can restore. `exists` checks a local
  /// path (injected, so this stays testable without files).
  public init(journal: SelectionJournal, openSources: Set<String>, exists: (PathBytes) -> Bool) {
    let all = journal.photos
    photos = all.filter { photo in
      guard openSources.contains(photo.key.sourceID) else { return false }
      if case .local(let path) = photo.output { return exists(path) }
      return true
    }
    skipped = journal.picks.count - photos.count
  }
}
