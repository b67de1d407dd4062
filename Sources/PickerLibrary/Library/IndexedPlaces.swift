/// Keeps the index's places: each photo's `place` key and the names of
/// every place a photo is in (the `place` table), as the namer says. The
/// names depend on the table shipped and the config's corrections: when
/// either changed since the index was named (its fingerprint in `meta`),
/// every photo with a position is named again, from the stored position,
/// without reading a file.
package final class IndexedPlaces {
  let database: SQLiteDatabase
  let namer: PlaceNamer?
  /// Places the `place` table has a row for.
  private var known: Set<Int> = []
  private let addPlace: SQLiteStatement

  package init(database: SQLiteDatabase, namer: PlaceNamer?) throws(SQLiteError) {
    self.database = database
    self.namer = namer
    addPlace = try database.prepare(
      "INSERT OR REPLACE INTO place(id, city, region, country, code, words) VALUES (?, ?, ?, ?, ?, ?)")
    try nameAgainIfChanged()
    let ids = try database.prepare("SELECT id FROM place")
    while try ids.step() { known.insert(Int(ids.int(0))) }
  }

  var fingerprint: String { namer?.fingerprint ?? "none" }

  /// The key for a position; nil without a table or where no place is near.
  func key(latitude: Double?, longitude: Double?) -> Int? {
    guard let namer, let latitude, let longitude else { return nil }
    return namer.key(latitude: latitude, longitude: longitude)
  }

  /// Makes sure the `place` table names `key`.
  package func remember(_ key: Int?) throws(SQLiteError) {
    guard let key, !known.contains(key), let place = namer?.place(key: key) else { return }
    let words = [place.city, place.region, place.country].compactMap { $0 }.map(PlaceText.folded)
    try addPlace.run([
      key, place.city, place.region, place.country, place.countryCode, words.joined(separator: " · "),
    ])
    known.insert(key)
  }

  private func nameAgainIfChanged() throws(SQLiteError) {
    let stored = try database.prepare("SELECT value FROM meta WHERE key = 'places'")
    let before = try stored.step() ? stored.text(0) : nil
    stored.bind([])
    // A new index has no photos to name again.
    guard before != fingerprint else { return }
    try database.transaction { () throws(SQLiteError) in
      try database.execute("DELETE FROM place")
      let positions = try database.prepare(
        "SELECT id, latitude, longitude FROM photo WHERE latitude IS NOT NULL AND longitude IS NOT NULL")
      var keys: [(id: Int64, key: Int?)] = []
      while try positions.step() {
        keys.append((positions.int(0), key(latitude: positions.double(1), longitude: positions.double(2))))
      }
      let update = try database.prepare("UPDATE photo SET place = ? WHERE id = ? AND place IS NOT ?")
      for (id, key) in keys {
        try update.run([key, id, key])
        try remember(key)
      }
      try database.prepare("INSERT OR REPLACE INTO meta VALUES ('places', ?)").run([fingerprint])
    }
  }
}
