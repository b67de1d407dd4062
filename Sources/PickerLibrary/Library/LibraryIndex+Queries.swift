import Foundation

/// One photo of the timeline, as listed.
public struct IndexedPhoto: Hashable, Sendable {
  public var path: PathBytes
  public var name: [UInt8]
  public var taken: TakenDate
  /// Read after the scan, for photos that may stack (`SignatureReader`).
  public var signature: PhotoSignature?
  /// The burst the camera says the shot is part of.
  public var burstID: String?
  /// The row's id.
  public var id: Int64 = 0
  /// Byte-identical copies elsewhere under the roots (`CopyFinder`), not
  /// listed themselves: how many, and their paths.
  public var copyCount = 0
  public var copies: [PathBytes] = []
  /// A Live Photo's MOV (`LivePhotos`).
  public var liveVideo: PathBytes?
  /// A video's length in seconds, when its header said.
  public var videoSeconds: Double?
  public var culling = Culling.none
}

extension LibraryIndex {
  /// Newest first by date taken; ties by sub-second, then name. With the
  /// listing's `days`, a deep page starts at its day in the date index and
  /// skips only within that day, instead of counting every row before it.
  public func photos(_ filter: LibraryFilter, offset: Int, limit: Int, days: [DayCount]? = nil) throws(SQLiteError)
    -> [IndexedPhoto]
  {
    var (condition, parameters) = try withPlaceWords(filter).listingCondition()
    var skip = offset
    if let days, offset > 0 {
      var before = 0
      for day in days {
        if before + day.count > offset {
          condition += " AND p.taken < ?"
          parameters.append(Int64(day.day + 1) * TakenDate.millisecondsPerDay)
          skip = offset - before
          break
        }
        before += day.count
      }
    }
    // CROSS JOIN keeps the photos outside: they are walked in the date
    // index's order and the walk stops at the page's end. Left to choose,
    // the planner starts from the folders and sorts every photo.
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        """
        SELECT \(Self.listedColumns) FROM photo p CROSS JOIN folder f ON f.id = p.folder
        WHERE \(condition) ORDER BY p.taken DESC, p.name DESC LIMIT ? OFFSET ?
        """)
      statement.bind(parameters + [limit, skip])
      var photos: [IndexedPhoto] = []
      // A sweep asks for up to 200,000: room for a page, grown past that.
      photos.reserveCapacity(min(limit, 4_096))
      var folders = FolderPaths()
      while try statement.step() { photos.append(Self.listedPhoto(statement, folders: &folders)) }
      try Self.readCopies(of: &photos, in: database)
      return photos
    }
  }

  /// What a listing reads of each photo (`listedPhoto`).
  static let listedColumns = """
    f.path, p.name, p.taken, p.origin, p.offset, p.hash, p.sharpness, p.burst, p.id, p.copies,
      p.live_video, p.duration, p.zone, p.rating, p.label
    """

  /// The folder path of the last row read, kept while rows come from the
  /// same folder (most do, in date order): one array less a photo.
  struct FolderPaths {
    private var last: PathBytes?

    mutating func path(at column: Int32, of statement: SQLiteStatement) -> PathBytes {
      let same = statement.withBytes(column) { bytes in
        guard let last, last.bytes.count == bytes.count else { return false }
        return bytes.isEmpty
          || last.bytes.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
      }
      if !same { last = PathBytes(statement.bytes(column)) }
      return last!
    }
  }

  /// The photo of a row of `listedColumns`, its folder's path reused.
  static func listedPhoto(_ statement: SQLiteStatement, folders: inout FolderPaths) -> IndexedPhoto {
    let folder = folders.path(at: 0, of: statement)
    let name = statement.bytes(1)
    let origin = TakenDate.Origin(rawValue: Int(statement.int(3))) ?? .fileTime
    var taken = TakenDate(
      wallClock: statement.int(2), offsetMinutes: statement.isNull(4) ? nil : Int(statement.int(4)), origin: origin)
    if !statement.isNull(12) { taken.zone = LocalTime.Source(code: Int(statement.int(12))) }
    let signature =
      statement.isNull(5)
      ? nil : PhotoSignature(hash: UInt64(bitPattern: statement.int(5)), sharpness: statement.double(6))
    var photo = IndexedPhoto(
      path: folder.appending(name), name: name, taken: taken, signature: signature,
      burstID: statement.text(7))
    photo.id = statement.int(8)
    photo.copyCount = Int(statement.int(9))
    if !statement.isNull(10) { photo.liveVideo = folder.appending(statement.bytes(10)) }
    if !statement.isNull(11), statement.double(11) > 0 { photo.videoSeconds = statement.double(11) }
    photo.culling = Culling(
      rating: Int(statement.int(13)), label: statement.isNull(14) ? nil : ColorLabel(rawValue: Int(statement.int(14))))
    return photo
  }

  /// Photos by id, in the order given (a search's page from
  /// `SearchCatalog`); an id no longer in the index is left out.
  public func photos(ids: [Int64]) throws(SQLiteError) -> [IndexedPhoto] { try photos(ids: ids) { $0 } }

  /// Photos by id as `make` makes them of the rows, in the order given;
  /// thousands are read and made in two halves at once (`inHalves`), so
  /// `make` runs on two threads, with a connection held: it must not ask
  /// the index anything.
  public func photos<Made>(ids: [Int64], as make: @Sendable (IndexedPhoto) -> Made) throws(SQLiteError) -> [Made] {
    try inHalves(of: ids) { positions, database, output throws(SQLiteError) in
      for photo in try Self.photos(ids: Array(ids[positions]), in: database) { output.append(make(photo)) }
    }
  }

  private static func photos(ids: [Int64], in database: SQLiteDatabase) throws(SQLiteError) -> [IndexedPhoto] {
    // The ids asked in id order (the order SQLite walks them in), each row
    // put at its place: no lookup by id after.
    let byID = ids.indices.sorted { ids[$0] < ids[$1] }
    var found = [IndexedPhoto?](repeating: nil, count: ids.count)
    var folders = FolderPaths()
    var next = 0
    try eachRow(
      ofIDs: byID.map { ids[$0] }, in: database,
      "SELECT \(Self.listedColumns) FROM photo p JOIN folder f ON f.id = p.folder WHERE p.id IN"
    ) { statement in
      let photo = Self.listedPhoto(statement, folders: &folders)
      while next < byID.count, ids[byID[next]] < photo.id { next += 1 }
      // The same id asked twice gets the photo twice.
      while next < byID.count, ids[byID[next]] == photo.id {
        found[byID[next]] = photo
        next += 1
      }
    }
    var photos: [IndexedPhoto] = []
    photos.reserveCapacity(ids.count)
    // Moved out, not copied.
    for position in found.indices { if let photo = found[position].take() { photos.append(photo) } }
    try readCopies(of: &photos, in: database)
    return photos
  }

  /// The paths of the copies, for the few photos listed that have some.
  private static func readCopies(of photos: inout [IndexedPhoto], in database: SQLiteDatabase) throws(SQLiteError) {
    guard photos.contains(where: { $0.copyCount > 0 }) else { return }
    let statement = try copiesStatement(database)
    for index in photos.indices where photos[index].copyCount > 0 {
      photos[index].copies = try copies(of: photos[index].id, statement)
    }
    statement.bind([])
  }

  /// Runs `select` (a query ending in `p.id IN`) for `ids`, some hundreds
  /// at a time, in one read (the file's lock taken once): each row comes
  /// to `row`, a chunk's rows in id order (all in id order when `ids` are
  /// sorted).
  static func eachRow(
    ofIDs ids: [Int64], in database: SQLiteDatabase, _ select: String,
    _ row: (SQLiteStatement) throws(SQLiteError) -> Void
  ) throws(SQLiteError) {
    try database.reading { () throws(SQLiteError) in
      // SQLite's limit on parameters is far above.
      let chunk = 500
      var statements: [Int: SQLiteStatement] = [:]
      for start in stride(from: 0, to: ids.count, by: chunk) {
        let part = Array(ids[start..<min(start + chunk, ids.count)])
        if statements[part.count] == nil {
          statements[part.count] = try database.prepare(
            select + " (" + Array(repeating: "?", count: part.count).joined(separator: ",") + ") ORDER BY p.id")
        }
        let statement = statements[part.count]!
        statement.bind(ids: part)
        while try statement.step() { try row(statement) }
      }
    }
  }

  /// Photos per day, newest day first, with the day's places: the whole
  /// timeline's shape before any of its rows are read.
  public func dayCounts(_ filter: LibraryFilter) throws(SQLiteError) -> [DayCount] {
    let filter = try withPlaceWords(filter)
    // The kept counts know days and places, not verdicts nor kinds.
    if filter.words.allSatisfy(filter.placeWords.contains) && filter.culling.isEmpty && filter.kinds.isEmpty {
      return try summedDayCounts(filter)
    }
    let (condition, parameters) = filter.listingCondition()
    return try withDatabase { database throws(SQLiteError) in
      // Integer division rounds towards zero: days before 1970 need floor.
      let statement = try database.prepare(
        """
        SELECT CASE WHEN p.taken >= 0 THEN p.taken / 86400000 ELSE (p.taken + 1) / 86400000 - 1 END AS day,
          ifnull(p.place, -1), count(*), sum(p.duration IS NOT NULL)
        FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition) GROUP BY day, p.place ORDER BY day DESC
        """)
      statement.bind(parameters)
      return try Self.days(from: statement, placeNames: try placeNames(in: database))
    }
  }

  /// Day counts from the per-folder table the triggers keep.
  private func summedDayCounts(_ filter: LibraryFilter) throws(SQLiteError) -> [DayCount] {
    let (condition, parameters) = filter.dayCountCondition()
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        """
        SELECT d.day, d.place, sum(d.count), sum(d.videos) FROM day_count d JOIN folder f ON f.id = d.folder
        WHERE \(condition) GROUP BY d.day, d.place ORDER BY d.day DESC
        """)
      statement.bind(parameters)
      return try Self.days(from: statement, placeNames: try placeNames(in: database))
    }
  }

  /// Rows of (day, place key or -1, count, videos), newest day first, as days with
  /// their places' names, most photos first (ties by name).
  private static func days(from statement: SQLiteStatement, placeNames: [Int64: String]) throws(SQLiteError)
    -> [DayCount]
  {
    var counts: [DayCount] = []
    var places: [String: Int] = [:]
    func finishDay() {
      guard !counts.isEmpty else { return }
      counts[counts.count - 1].places = places.sorted {
        $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key)
      }
      .map(\.key)
      places = [:]
    }
    while try statement.step() {
      let (day, place, count) = (Int(statement.int(0)), statement.int(1), Int(statement.int(2)))
      if counts.last?.day != day {
        finishDay()
        counts.append(DayCount(day: day, count: 0))
      }
      counts[counts.count - 1].count += count
      counts[counts.count - 1].videos += Int(statement.int(3))
      if let name = placeNames[place] { places[name, default: 0] += count }
    }
    finishDay()
    return counts
  }

  /// What a day header calls each place: its city, else its country.
  private func placeNames(in database: SQLiteDatabase) throws(SQLiteError) -> [Int64: String] {
    let statement = try database.prepare("SELECT id, ifnull(city, country) FROM place")
    var names: [Int64: String] = [:]
    while try statement.step() { names[statement.int(0)] = statement.text(1) ?? "" }
    return names
  }

  /// What one indexed file says, for the preview's facts ("Taken").
  public func taken(of path: PathBytes) throws(SQLiteError) -> TakenDate? {
    guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
    let folder = slash == 0 ? [UInt8(ascii: "/")] : Array(path.bytes[..<slash])
    let name = Array(path.bytes[(slash + 1)...])
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        """
        SELECT p.taken, p.origin, p.offset, p.zone FROM photo p JOIN folder f ON f.id = p.folder
        WHERE f.path = ? AND p.name = ?
        """
      )
      statement.bind([folder, name])
      guard try statement.step() else { return nil }
      var taken = TakenDate(
        wallClock: statement.int(0), offsetMinutes: statement.isNull(2) ? nil : Int(statement.int(2)),
        origin: TakenDate.Origin(rawValue: Int(statement.int(1))) ?? .fileTime)
      if !statement.isNull(3) { taken.zone = LocalTime.Source(code: Int(statement.int(3))) }
      statement.bind([])
      return taken
    }
  }

  /// `picker-tui index --stats`: photos, dates by origin.
  public func originCounts(_ filter: LibraryFilter) throws(SQLiteError) -> [TakenDate.Origin: Int] {
    let (condition, parameters) = filter.condition()
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        "SELECT p.origin, count(*) FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition) GROUP BY p.origin")
      statement.bind(parameters)
      var counts: [TakenDate.Origin: Int] = [:]
      while try statement.step() {
        if let origin = TakenDate.Origin(rawValue: Int(statement.int(0))) { counts[origin] = Int(statement.int(1)) }
      }
      return counts
    }
  }

  /// `index --stats`: how many of the photos are videos, and their length.
  public func videoSummary(_ filter: LibraryFilter) throws(SQLiteError) -> (count: Int, seconds: Double) {
    let (condition, parameters) = filter.condition()
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        "SELECT count(p.duration), total(p.duration) FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition)")
      statement.bind(parameters)
      guard try statement.step() else { return (0, 0) }
      return (Int(statement.int(0)), statement.double(1))
    }
  }

  /// `index --stats`: photos with a position, how many of them a place
  /// names, in how many places and countries.
  public func placeSummary(_ filter: LibraryFilter) throws(SQLiteError)
    -> (withPosition: Int, named: Int, places: Int, countries: Int)
  {
    let (condition, parameters) = filter.condition()
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        """
        SELECT count(p.latitude), count(p.place), count(DISTINCT p.place), count(DISTINCT pl.country)
        FROM photo p JOIN folder f ON f.id = p.folder LEFT JOIN place pl ON pl.id = p.place WHERE \(condition)
        """)
      statement.bind(parameters)
      guard try statement.step() else { return (0, 0, 0, 0) }
      let result = (
        Int(statement.int(0)), Int(statement.int(1)), Int(statement.int(2)), Int(statement.int(3))
      )
      statement.bind([])
      return result
    }
  }

  /// `filter` with its place words found (`LibraryFilter.placeWords`): a
  /// word is one when a place photos were taken in has it in its names and
  /// no camera or lens of the index does.
  func withPlaceWords(_ filter: LibraryFilter) throws(SQLiteError) -> LibraryFilter {
    guard !filter.words.isEmpty else { return filter }
    var resolved = filter
    resolved.placeWords = try withDatabase { database throws(SQLiteError) in
      let place = try database.prepare("SELECT 1 FROM place WHERE words LIKE ? ESCAPE '\\' LIMIT 1")
      let camera = try database.prepare(
        "SELECT 1 FROM camera WHERE make LIKE ?1 ESCAPE '\\' OR model LIKE ?1 ESCAPE '\\' OR lens LIKE ?1 ESCAPE '\\'"
          + " OR (make || ' ' || model) LIKE ?1 ESCAPE '\\' LIMIT 1")
      var found: Set<String> = []
      for word in filter.words {
        place.bind(["%" + LibraryFilter.escapedForLike(PlaceText.folded(word)) + "%"])
        let namesPlace = try place.step()
        place.bind([])
        guard namesPlace else { continue }
        camera.bind(["%" + LibraryFilter.escapedForLike(word) + "%"])
        let namesCamera = try camera.step()
        camera.bind([])
        if !namesCamera { found.insert(word) }
      }
      return found
    }
    return resolved
  }
}
