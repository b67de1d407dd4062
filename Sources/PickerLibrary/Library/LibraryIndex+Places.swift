/// The Places scope's listings: the places photos are in, with how many
/// photos each has and its newest photo as the cover.
public struct PlaceGroup: Hashable, Sendable {
  /// The place's key (`PlaceNamer`).
  public var key: Int
  public var place: Place
  public var count: Int
  /// The newest photo taken there.
  public var cover: PathBytes?
  /// The day of that photo: which of several places is newest.
  public var newestDay: Int
}

extension LibraryIndex {
  /// Whether some photo's place (town, region or country) holds `name`, as
  /// `--place` matches it: a name that matches none is a mistake to say.
  public func knowsPlace(_ name: String) throws(SQLiteError) -> Bool {
    try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare("SELECT 1 FROM place WHERE words LIKE ? ESCAPE '\\' LIMIT 1")
      statement.bind(["%" + LibraryFilter.escapedForLike(PlaceText.folded(name)) + "%"])
      return try statement.step()
    }
  }

  /// Every place a photo of `filter` is in, with its count and newest day
  /// (from the trigger-kept day counts: no photo row is read), most
  /// photos first. Covers are not read: `cover(ofPlaces:onDay:_:)`.
  public func placeGroups(_ filter: LibraryFilter) throws(SQLiteError) -> [PlaceGroup] {
    let (condition, parameters) = filter.dayCountCondition()
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        """
        SELECT d.place, sum(d.count), max(d.day), pl.city, pl.region, pl.country, pl.code
        FROM day_count d JOIN folder f ON f.id = d.folder JOIN place pl ON pl.id = d.place
        WHERE \(condition) GROUP BY d.place
        """)
      statement.bind(parameters)
      var groups: [PlaceGroup] = []
      while try statement.step() {
        let place = Place(
          city: statement.text(3), region: statement.text(4), country: statement.text(5) ?? "",
          countryCode: statement.text(6) ?? "")
        groups.append(
          PlaceGroup(
            key: Int(statement.int(0)), place: place, count: Int(statement.int(1)), cover: nil,
            newestDay: Int(statement.int(2))))
      }
      return groups.sorted { $0.count > $1.count || ($0.count == $1.count && $0.place.label < $1.place.label) }
    }
  }

  /// The newest photo of `filter` taken in one of the places `keys` on
  /// `day`: a walk of one day of the date index.
  public func cover(ofPlaces keys: [Int], onDay day: Int, _ filter: LibraryFilter) throws(SQLiteError) -> PathBytes? {
    var copy = filter
    copy.words = []
    var (condition, parameters) = copy.listingCondition()
    condition +=
      " AND p.taken >= ? AND p.taken < ? AND p.place IN (" + keys.map { _ in "?" }.joined(separator: ", ") + ")"
    parameters += [Int64(day) * TakenDate.millisecondsPerDay, Int64(day + 1) * TakenDate.millisecondsPerDay]
    parameters += keys as [Any?]
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        """
        SELECT f.path, p.name FROM photo p CROSS JOIN folder f ON f.id = p.folder
        WHERE \(condition) ORDER BY p.taken DESC, p.name DESC LIMIT 1
        """)
      statement.bind(parameters)
      guard try statement.step() else { return nil }
      let path = PathBytes(statement.bytes(0)).appending(statement.bytes(1))
      statement.bind([])
      return path
    }
  }
}
