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
  /// Stars, rejects and labels (`rating>=3`, `--min-rating`, `--label`).
  public var culling = CullingFilter()
  /// Videos, photos, Live Photos, raws (`video`, `-video`, `--only`).
  public var kinds = KindFilter()

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
    if let (cullingSQL, cullingParameters) = culling.condition() {
      clauses.append(cullingSQL)
      parameters += cullingParameters
    }
    if let (kindSQL, kindParameters) = kinds.condition() {
      clauses.append(kindSQL)
      parameters += kindParameters
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
    sql += " AND p.copy_of IS NULL AND p.live_of IS NULL"
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
