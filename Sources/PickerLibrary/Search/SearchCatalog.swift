import Foundation

/// What the timeline's search words can match, for every photo it lists,
/// held in memory in listing order (newest first): the name, the folder,
/// the camera and lens, the place, the kinds and the verdict. A search in
/// the index runs `LIKE '%word%'` on six columns of every row twice a key
/// (the day counts, then the page); here the folders, cameras and places
/// are tested once each, so a row costs a few array reads and one look
/// through its name, and a longer query only looks through the rows the
/// shorter one kept (`SearchCatalog+Matching`).
///
/// Read from the index in the background when the timeline is settled
/// (`TimelineSource+Catalog`); until then, and after a change until read
/// again, searches ask the index as before. Matches the same photos as
/// `LibraryFilter.listingCondition()`.
final class SearchCatalog: @unchecked Sendable {
  /// The source's change count when this was read: a change since makes it stale.
  let generation: Int

  // One entry a photo, in listing order.
  let ids: [Int64]
  /// Day numbers (`CivilDate.dayNumber`), newest first.
  let days: [Int32]
  /// Indexes into `folderPaths`, `cameras` and `places` (−1: none).
  let folders: [Int32]
  let cameras: [Int32]
  let places: [Int32]
  let kinds: [UInt8]
  /// Names, ASCII lowered as LIKE compares them, one after another:
  /// photo `row`'s is `names[nameStarts[row]..<nameStarts[row + 1]]`.
  let nameStarts: [Int32]
  let names: [UInt8]
  /// The verdicts, kept as they are given (`setCulling`).
  private(set) var ratings: [Int8]
  private(set) var labels: [Int8]
  /// The folders of photos' copies elsewhere: a word naming one finds the
  /// photo shown for it.
  let copyFolders: [Int32: [Int32]]
  /// `ids` sorted, and the row of each: a verdict given finds its row.
  /// Made on the first verdict given (under `lock`): most runs give none.
  private var idOrder: (ids: [Int64], rows: [Int32])?

  // The small tables, each entry tested once per word.
  let folderPaths: [[UInt8]]
  let cameraFields: [CameraFields]
  let placeWords: [[UInt8]]
  let placeKeys: [Int64]
  /// What a day header calls each place: its city, else its country.
  let placeNames: [String]

  /// The last few searches' rows: the next key typed narrows the last
  /// one's instead of every row, and a page further down reads its rows.
  let lock = NSLock()
  var matches: [CatalogMatch] = []

  struct CameraFields {
    var make: [UInt8]
    var model: [UInt8]
    var lens: [UInt8]
    /// `make model`, which a phrase ("pixel 7") may match across.
    var makeAndModel: [UInt8]
  }

  /// Kinds as bits, for `KindFilter`.
  static let photoBit: UInt8 = 1
  static let videoBit: UInt8 = 2
  static let liveBit: UInt8 = 4
  static let rawBit: UInt8 = 8
  /// Not a kind: the photo has copies elsewhere (`copyFolders`).
  static let copiesBit: UInt8 = 16

  var count: Int { ids.count }

  init(generation: Int, columns: Columns, tables: Tables) {
    self.generation = generation
    ids = columns.ids
    days = columns.days
    folders = columns.folders
    cameras = columns.cameras
    places = columns.places
    kinds = columns.kinds
    nameStarts = columns.nameStarts
    names = columns.names
    ratings = columns.ratings
    labels = columns.labels
    copyFolders = columns.copyFolders
    folderPaths = tables.folderPaths
    cameraFields = tables.cameraFields
    placeWords = tables.placeWords
    placeKeys = tables.placeKeys
    placeNames = tables.placeNames
  }

  /// The per-photo columns as read.
  struct Columns {
    var ids: [Int64] = []
    var days: [Int32] = []
    var folders: [Int32] = []
    var cameras: [Int32] = []
    var places: [Int32] = []
    var kinds: [UInt8] = []
    var nameStarts: [Int32] = [0]
    var names: [UInt8] = []
    var ratings: [Int8] = []
    var labels: [Int8] = []
    var copyFolders: [Int32: [Int32]] = [:]

    /// Room for `count` photos of names about `nameLength` long: the
    /// arrays do not grow by doubling (twice the memory while they do).
    mutating func reserve(_ count: Int, nameLength: Int = 24) {
      ids.reserveCapacity(count)
      days.reserveCapacity(count)
      folders.reserveCapacity(count)
      cameras.reserveCapacity(count)
      places.reserveCapacity(count)
      kinds.reserveCapacity(count)
      nameStarts.reserveCapacity(count + 1)
      names.reserveCapacity(count * nameLength)
      ratings.reserveCapacity(count)
      labels.reserveCapacity(count)
    }
  }

  struct Tables {
    var folderPaths: [[UInt8]] = []
    var cameraFields: [CameraFields] = []
    var placeWords: [[UInt8]] = []
    var placeKeys: [Int64] = []
    var placeNames: [String] = []
  }

  /// The row of photo `id`, nil when not listed. Called under `lock`.
  private func row(ofID id: Int64) -> Int? {
    if idOrder == nil {
      let order = ids.indices.sorted { ids[$0] < ids[$1] }
      idOrder = (order.map { ids[$0] }, order.map { Int32($0) })
    }
    let (sorted, rows) = idOrder!
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low] == id ? Int(rows[low]) : nil
  }

  /// What the catalog holds in memory, in bytes (the bench says it).
  var memoryBytes: Int {
    ids.capacity * 8 + (days.capacity + folders.capacity + cameras.capacity + places.capacity) * 4
      + kinds.capacity + nameStarts.capacity * 4 + names.capacity + ratings.capacity + labels.capacity
  }

  /// A verdict given while the picker runs: searches by verdict see it at once.
  func setCulling(_ culling: Culling, ofID id: Int64) {
    lock.withLock {
      guard let row = row(ofID: id) else { return }
      ratings[row] = Int8(clamping: culling.rating)
      labels[row] = Int8(clamping: culling.label?.rawValue ?? -1)
      // Rows kept under a verdict's filter may be wrong now.
      matches.removeAll { !$0.filter.culling.isEmpty }
    }
  }

  /// The verdict of `row`, read under the lock (`setCulling` writes it).
  func culling(atRow row: Int) -> (rating: Int8, label: Int8) {
    lock.withLock { (ratings[row], labels[row]) }
  }

  /// ASCII letters lowered, the rest as is: how LIKE compares.
  static func lowered<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
    bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
  }

  /// Whether `haystack` holds `needle` (both lowered already).
  static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = needle.count
    guard count > 0 else { return true }
    guard haystack.count >= count else { return false }
    let first = needle[0]
    var at = 0
    let last = haystack.count - count
    while at <= last {
      if haystack[at] == first {
        var matched = 1
        while matched < count && haystack[at + matched] == needle[matched] { matched += 1 }
        if matched == count { return true }
      }
      at += 1
    }
    return false
  }

  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    haystack.withUnsafeBufferPointer { hay in needle.withUnsafeBufferPointer { contains(hay, $0) } }
  }
}

/// One search's rows, and its day counts once asked for.
struct CatalogMatch {
  var filter: LibraryFilter
  var rows: [Int32]
  var days: [DayCount]?
}
