/// Identifies a photo across sources: the same id in two sources is two
/// photos.
public struct SelectionKey: Hashable, Sendable {
  public var sourceID: String
  public var itemID: String

  public init(sourceID: String, itemID: String) {
    self.sourceID = sourceID
    self.itemID = itemID
  }
}

/// What stdout gets for a picked photo.
public enum PickedOutput: Hashable, Sendable {
  /// A local file: its path, as the source gave it.
  case local(PathBytes)
  /// A remote original: downloaded on confirm (or printed with --print-urls).
  case remote(source: String, url: String)
}

/// A picked photo, with what the tray shows and what stdout gets.
public struct PickedPhoto: Hashable, Sendable {
  public var key: SelectionKey
  public var title: [UInt8]
  public var output: PickedOutput
  /// What its listing said of it (nil for picks restored from a journal).
  public var details: PickedDetails?
  /// The key press that picked it with others (a day, a range, all
  /// listed), for the tray's count of each; nil when picked alone.
  public var group: Int?

  public init(key: SelectionKey, title: [UInt8], output: PickedOutput, details: PickedDetails? = nil) {
    self.key = key
    self.title = title
    self.output = output
    self.details = details
  }

  public init(key: SelectionKey, title: [UInt8], outputPath: PathBytes) {
    self.init(key: key, title: title, output: .local(outputPath))
  }
}

/// The photos picked so far, in the order they were picked.
///
/// Kept across folders, sources, pages and searches: it is keyed by
/// (source, item id), never by position.
public struct Selection: Hashable, Sendable {
  public private(set) var photos: [PickedPhoto] = []
  private var positions: [SelectionKey: Int] = [:]

  public init() {}

  public var count: Int { photos.count }
  public var isEmpty: Bool { photos.isEmpty }

  public func contains(_ key: SelectionKey) -> Bool { positions[key] != nil }

  /// Adds `photo` at the end; false when it is already there.
  @discardableResult
  public mutating func insert(_ photo: PickedPhoto) -> Bool {
    guard positions[photo.key] == nil else { return false }
    positions[photo.key] = photos.count
    photos.append(photo)
    checkInvariants()
    return true
  }

  /// Adds those of `photos` not there yet, at the end, in order; how many.
  /// One pass, for a day or a range picked at once.
  @discardableResult
  public mutating func insert(contentsOf added: [PickedPhoto]) -> Int {
    var count = 0
    // Room made once for a big batch; small ones grow as usual (room made
    // exact on every call would copy the whole selection each time).
    if added.count > 256 {
      positions.reserveCapacity(photos.count + added.count)
      photos.reserveCapacity(photos.count + added.count)
    }
    for photo in added {
      // One lookup a photo: put in, and put back in the rare case it was there.
      if let earlier = positions.updateValue(photos.count, forKey: photo.key) {
        positions[photo.key] = earlier
        continue
      }
      photos.append(photo)
      count += 1
    }
    checkInvariants()
    return count
  }

  /// Removes every photo whose key is in `keys`, in one pass; how many.
  @discardableResult
  public mutating func remove(_ keys: Set<SelectionKey>) -> Int {
    let before = photos.count
    photos.removeAll { keys.contains($0.key) }
    guard photos.count != before else { return 0 }
    positions = Dictionary(uniqueKeysWithValues: photos.enumerated().map { ($1.key, $0) })
    checkInvariants()
    return before - photos.count
  }

  /// Removes the photo with `key`; false when it was not there.
  @discardableResult
  public mutating func remove(_ key: SelectionKey) -> Bool {
    guard let index = positions.removeValue(forKey: key) else { return false }
    photos.remove(at: index)
    for later in index..<photos.count { positions[photos[later].key] = later }
    checkInvariants()
    return true
  }

  /// The photos whose outputs are printed, in pick order; a path picked
  /// twice (from two sources) is printed once.
  public var printed: [PickedPhoto] {
    var seen = Set<PickedOutput>()
    return photos.filter { seen.insert($0.output).inserted }
  }

  /// The local paths among what is printed.
  public var outputPaths: [PathBytes] {
    printed.compactMap { if case .local(let path) = $0.output { path } else { nil } }
  }

  private func checkInvariants() {
    assert(positions.count == photos.count, "selection index out of step")
    assert(photos.indices.allSatisfy { positions[photos[$0].key] == $0 }, "selection index wrong")
  }
}

/// The --max and --min rules, with the messages shown when they refuse.
public struct SelectionLimits: Hashable, Sendable {
  public var maximum: Int?
  public var minimum: Int?

  public init(maximum: Int? = nil, minimum: Int? = nil) {
    self.maximum = maximum
    self.minimum = minimum
  }

  /// Why one more photo cannot be added to `count` picked ones, or nil.
  public func refusalToAdd(count: Int) -> String? {
    guard let maximum, count >= maximum else { return nil }
    return "At most \(maximum) \(photos(maximum)) can be picked (--max \(maximum))"
  }

  /// Why `count` photos cannot be confirmed, or nil.
  public func refusalToConfirm(count: Int) -> String? {
    if let minimum, count < minimum {
      return "Pick at least \(minimum) \(photos(minimum)) (--min \(minimum)); \(count) picked"
    }
    if let maximum, count > maximum {
      return "At most \(maximum) \(photos(maximum)) can be picked (--max \(maximum))"
    }
    return nil
  }

  private func photos(_ n: Int) -> String { n == 1 ? "photo" : "photos" }
}
