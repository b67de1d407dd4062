/// Which part of the index a timeline shows: the photos under some roots,
/// optionally between two days (`--since`, `--until`, a date in a search).
public struct LibraryFilter: Hashable, Sendable {
  public var roots: [PathBytes]
  /// Inclusive day numbers (`CivilDate.dayNumber`).
  public var firstDay: Int?
  public var lastDay: Int?
  /// Every word must match the name, the folder, the make, the model or
  /// the lens; or the whole phrase one of them ("pixel 7").
  public var words: [String] = []
  /// `--place`: only photos in a place whose city, region or country
  /// holds one of these (case and accents folded).
  public var places: [String] = []
  /// Only photos in these places (`PlaceNamer` keys): a city of the
  /// Places scope.
  public var placeKeys: [Int] = []
  /// Of `words`, those that name a place photos were taken in and no
  /// camera or lens (`LibraryIndex.placeWords`): they match places and
  /// folders only, which small tables answer, so a search by a place reads
  /// the trigger-kept day counts instead of every photo row.
  var placeWords: Set<String> = []

  public init(roots: [PathBytes], firstDay: Int? = nil, lastDay: Int? = nil) {
    self.roots = roots.map(Self.normalised)
    self.firstDay = firstDay
    self.lastDay = lastDay
  }

  /// Without a trailing slash, so that prefixes compare by component.
  static func normalised(_ root: PathBytes) -> PathBytes {
    var bytes = root.bytes
    while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    return PathBytes(bytes)
  }

  /// The first root a file's path is under (the same rule as
  /// `rootCondition`), nil when under none.
  func rootIndex(of path: PathBytes) -> Int? {
    roots.firstIndex { root in
      let base = root.bytes == [UInt8(ascii: "/")] ? [] : root.bytes
      return path.bytes.starts(with: base + [UInt8(ascii: "/")])
    }
  }

  /// The condition on `f.path` that keeps the folders under the roots.
  func rootCondition() -> (sql: String, parameters: [Any?]) {
    var parameters: [Any?] = []
    // A folder is under a root when its path is the root or starts with
    // root + "/": as bytes, between root/ and root0 ('0' follows '/').
    let rootClauses = roots.map { root -> String in
      let base = root.bytes == [UInt8(ascii: "/")] ? [] : root.bytes
      parameters += [root.bytes, base + [UInt8(ascii: "/")], base + [UInt8(ascii: "0")]]
      return "(f.path = ? OR (f.path >= ? AND f.path < ?))"
    }
    return (rootClauses.isEmpty ? "0" : "(" + rootClauses.joined(separator: " OR ") + ")", parameters)
  }

  /// The SQL condition on `f.path` and `p.taken`, and its parameters.
  func condition() -> (sql: String, parameters: [Any?]) {
    let (rootSQL, rootParameters) = rootCondition()
    var clauses = [rootSQL]
    var parameters = rootParameters
    if let firstDay {
      clauses.append("p.taken >= ?")
      parameters.append(Int64(firstDay) * TakenDate.millisecondsPerDay)
    }
    if let lastDay {
      clauses.append("p.taken < ?")
      parameters.append(Int64(lastDay + 1) * TakenDate.millisecondsPerDay)
    }
    if let (placeSQL, placeParameters) = placeCondition(column: "p.place") {
      clauses.append(placeSQL)
      parameters += placeParameters
    }
    if !words.isEmpty {
      let (wordSQL, wordParameters) = wordCondition(includingCopies: false)
      clauses.append(wordSQL)
      parameters += wordParameters
    }
    return (clauses.joined(separator: " AND "), parameters)
  }

  /// The condition on the trigger-kept counts `d` (folder, day, place) and
  /// `f` (their folder): the roots, the days, the places, and words that
  /// all name places (`placeWords`; no other word can be answered there).
  func dayCountCondition() -> (sql: String, parameters: [Any?]) {
    var (condition, parameters) = rootCondition()
    if let firstDay {
      condition += " AND d.day >= ?"
      parameters.append(firstDay)
    }
    if let lastDay {
      condition += " AND d.day <= ?"
      parameters.append(lastDay)
    }
    if let (placeSQL, placeParameters) = placeCondition(column: "d.place") {
      condition += " AND " + placeSQL
      parameters += placeParameters
    }
    for word in words {
      let (wordSQL, wordParameters) = Self.placeWordCondition(word, place: "d.place", folder: "d.folder")
      condition += " AND " + wordSQL
      parameters += wordParameters
    }
    return (condition, parameters)
  }

  /// `--place`'s and the Places scope's condition on a place key column,
  /// nil when not restricted.
  func placeCondition(column: String) -> (sql: String, parameters: [Any?])? {
    var clauses: [String] = []
    var parameters: [Any?] = []
    if !places.isEmpty {
      let likes = places.map { _ in "words LIKE ? ESCAPE '\\'" }.joined(separator: " OR ")
      clauses.append("\(column) IN (SELECT id FROM place WHERE \(likes))")
      parameters += places.map { "%" + Self.escapedForLike(PlaceText.folded($0)) + "%" } as [Any?]
    }
    if !placeKeys.isEmpty {
      clauses.append("\(column) IN (" + placeKeys.map { _ in "?" }.joined(separator: ", ") + ")")
      parameters += placeKeys as [Any?]
    }
    return clauses.isEmpty ? nil : (clauses.joined(separator: " AND "), parameters)
  }

  /// Every word matches the name, the folder, the make, the model, the
  /// lens or the place (with `includingCopies`, the folder of a copy too),
  /// or the whole phrase one of them. A place word matches the place or
  /// the folder only (`placeWordCondition`).
  func wordCondition(includingCopies: Bool) -> (sql: String, parameters: [Any?]) {
    func like(_ column: String) -> String { "\(column) LIKE ? ESCAPE '\\'" }
    // A place's words are kept folded: the word is folded to match them
    // (`sao paulo` finds São Paulo).
    let placeField = "p.place IN (SELECT id FROM place WHERE \(like("words")))"
    var fields = ["CAST(p.name AS TEXT)", "CAST(f.path AS TEXT)", "p.make", "p.model", "p.lens"].map(like)
    // Only a photo shown for copies looks at their folders: the test on
    // `copies` keeps the subquery off every other row.
    if includingCopies {
      fields.append(
        "(p.copies > 0 AND EXISTS (SELECT 1 FROM photo c JOIN folder g ON g.id = c.folder"
          + " WHERE c.copy_of = p.id AND \(like("CAST(g.path AS TEXT)"))))")
    }
    var parameters: [Any?] = []
    var everyWord: [String] = []
    for word in words {
      if placeWords.contains(word) {
        let (sql, wordParameters) = Self.placeWordCondition(word, place: "p.place", folder: "p.folder")
        everyWord.append(sql)
        parameters += wordParameters
        continue
      }
      everyWord.append("(" + (fields + [placeField]).joined(separator: " OR ") + ")")
      parameters += Array(repeating: "%" + Self.escapedForLike(word) + "%", count: fields.count) as [Any?]
      parameters.append("%" + Self.escapedForLike(PlaceText.folded(word)) + "%")
    }
    // Words that all name places name no camera: no phrase is one.
    guard !words.allSatisfy(placeWords.contains) else {
      return ("(" + everyWord.joined(separator: " AND ") + ")", parameters)
    }
    // "pixel 7" is the model Pixel 7, not any photo with a 7 in its name.
    let phraseFields = ["ifnull(p.make, '') || ' ' || ifnull(p.model, '')", "p.model", "p.lens"]
    let phrase = words.joined(separator: " ")
    parameters += Array(repeating: "%" + Self.escapedForLike(phrase) + "%", count: phraseFields.count) as [Any?]
    let sql =
      "((" + everyWord.joined(separator: " AND ") + ") OR " + phraseFields.map(like).joined(separator: " OR ") + ")"
    return (sql, parameters)
  }

  /// A place word's condition on a place key and a folder id column: the
  /// place's names or the folder's path hold it. Both lists are small and
  /// read once per query.
  static func placeWordCondition(_ word: String, place: String, folder: String) -> (
    sql: String, parameters: [Any?]
  ) {
    (
      "(\(place) IN (SELECT id FROM place WHERE words LIKE ? ESCAPE '\\')"
        + " OR \(folder) IN (SELECT id FROM folder WHERE CAST(path AS TEXT) LIKE ? ESCAPE '\\'))",
      ["%" + escapedForLike(PlaceText.folded(word)) + "%", "%" + escapedForLike(word) + "%"]
    )
  }

  /// The timeline's condition: `condition()` less the copies of photos
  /// shown (`CopyFinder`), and a word that names the folder of a copy
  /// finds the photo shown for it.
  func listingCondition() -> (sql: String, parameters: [Any?]) {
    var copy = self
    copy.words = []
    var (sql, parameters) = copy.condition()
    sql += " AND p.copy_of IS NULL"
    guard !words.isEmpty else { return (sql, parameters) }
    let (wordSQL, wordParameters) = wordCondition(includingCopies: true)
    return (sql + " AND " + wordSQL, parameters + wordParameters)
  }

  static func escapedForLike(_ word: String) -> String {
    var escaped = ""
    for c in word {
      if c == "%" || c == "_" || c == "\\" { escaped.append("\\") }
      escaped.append(c)
    }
    return escaped
  }
}

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
        SELECT f.path, p.name, p.taken, p.origin, p.offset, p.hash, p.sharpness, p.burst, p.id, p.copies,
          p.live_video
        FROM photo p CROSS JOIN folder f ON f.id = p.folder
        WHERE \(condition) ORDER BY p.taken DESC, p.name DESC LIMIT ? OFFSET ?
        """)
      statement.bind(parameters + [limit, skip])
      var photos: [IndexedPhoto] = []
      photos.reserveCapacity(limit)
      while try statement.step() {
        let name = statement.bytes(1)
        let origin = TakenDate.Origin(rawValue: Int(statement.int(3))) ?? .fileTime
        let taken = TakenDate(
          wallClock: statement.int(2), offsetMinutes: statement.isNull(4) ? nil : Int(statement.int(4)),
          origin: origin)
        let signature =
          statement.isNull(5)
          ? nil : PhotoSignature(hash: UInt64(bitPattern: statement.int(5)), sharpness: statement.double(6))
        var photo = IndexedPhoto(
          path: PathBytes(statement.bytes(0)).appending(name), name: name, taken: taken, signature: signature,
          burstID: statement.text(7))
        photo.id = statement.int(8)
        photo.copyCount = Int(statement.int(9))
        if !statement.isNull(10) { photo.liveVideo = PathBytes(statement.bytes(0)).appending(statement.bytes(10)) }
        photos.append(photo)
      }
      // The paths of the copies, for the few photos of the page that have some.
      for index in photos.indices where photos[index].copyCount > 0 {
        photos[index].copies = try copyPaths(of: photos[index].id, in: database)
      }
      return photos
    }
  }

  /// The paths of the copies of photo `id`, by path.
  private func copyPaths(of id: Int64, in database: SQLiteDatabase) throws(SQLiteError) -> [PathBytes] {
    let statement = try database.prepare(
      "SELECT f.path, c.name FROM photo c JOIN folder f ON f.id = c.folder WHERE c.copy_of = ? ORDER BY f.path, c.name")
    statement.bind([id])
    var paths: [PathBytes] = []
    while try statement.step() { paths.append(PathBytes(statement.bytes(0)).appending(statement.bytes(1))) }
    return paths
  }

  /// Photos per day, newest day first, with the day's places: the whole
  /// timeline's shape before any of its rows are read.
  public func dayCounts(_ filter: LibraryFilter) throws(SQLiteError) -> [DayCount] {
    let filter = try withPlaceWords(filter)
    if filter.words.allSatisfy(filter.placeWords.contains) { return try summedDayCounts(filter) }
    let (condition, parameters) = filter.listingCondition()
    return try withDatabase { database throws(SQLiteError) in
      // Integer division rounds towards zero: days before 1970 need floor.
      let statement = try database.prepare(
        """
        SELECT CASE WHEN p.taken >= 0 THEN p.taken / 86400000 ELSE (p.taken + 1) / 86400000 - 1 END AS day,
          ifnull(p.place, -1), count(*)
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
        SELECT d.day, d.place, sum(d.count) FROM day_count d JOIN folder f ON f.id = d.folder
        WHERE \(condition) GROUP BY d.day, d.place ORDER BY d.day DESC
        """)
      statement.bind(parameters)
      return try Self.days(from: statement, placeNames: try placeNames(in: database))
    }
  }

  /// Rows of (day, place key or -1, count), newest day first, as days with
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
        "SELECT p.taken, p.origin, p.offset FROM photo p JOIN folder f ON f.id = p.folder WHERE f.path = ? AND p.name = ?"
      )
      statement.bind([folder, name])
      guard try statement.step() else { return nil }
      let taken = TakenDate(
        wallClock: statement.int(0), offsetMinutes: statement.isNull(2) ? nil : Int(statement.int(2)),
        origin: TakenDate.Origin(rawValue: Int(statement.int(1))) ?? .fileTime)
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
