import Foundation

extension SearchCatalog {
  /// The rows `filter` lists, in listing order: every word matches the
  /// name, the folder (or a copy's), the camera, the lens or the place (a
  /// place word the place or the folder only), or the whole phrase the
  /// camera or lens, as `LibraryFilter.listingCondition()` says. `filter`
  /// comes with its place words found (`LibraryIndex.withPlaceWords`).
  /// Throws `CancellationError` when the task is cancelled (a newer key).
  func match(_ filter: LibraryFilter) throws -> CatalogMatch {
    if let kept = lock.withLock({ matches.first { $0.filter == filter } }) { return kept }
    // A query that narrows an earlier one only looks through its rows.
    let narrowed = lock.withLock { matches.first { Self.narrows(filter, $0.filter) }?.rows }
    let test = RowTest(filter, in: self)
    let (ratings, labels) = lock.withLock { (self.ratings, self.labels) }
    var rows: [Int32] = []
    let visit = { (row: Int) in
      if test.keeps(row, ratings: ratings, labels: labels, catalog: self) { rows.append(Int32(row)) }
    }
    if let narrowed {
      for (offset, row) in narrowed.enumerated() {
        if offset & 0x3fff == 0, Task.isCancelled { throw CancellationError() }
        visit(Int(row))
      }
    } else {
      for row in dayRange(filter) {
        if row & 0x3fff == 0, Task.isCancelled { throw CancellationError() }
        visit(row)
      }
    }
    let match = CatalogMatch(filter: filter, rows: rows)
    remember(match)
    return match
  }

  /// The day counts of a match, kept with it for the next page.
  func days(of match: CatalogMatch) -> [DayCount] {
    if let days = match.days { return days }
    let days = dayCounts(of: match.rows)
    var counted = match
    counted.days = days
    remember(counted)
    return days
  }

  private func remember(_ match: CatalogMatch) {
    lock.withLock {
      matches.removeAll { $0.filter == match.filter }
      matches.insert(match, at: 0)
      if matches.count > 4 { matches.removeLast() }
    }
  }

  /// Whether every row `narrower` keeps is one `wider` keeps: the same
  /// filter but the words, and each of `wider`'s words inside the word in
  /// its place (typing on), which is a place word if `wider`'s was (a
  /// place word matches fewer fields).
  static func narrows(_ narrower: LibraryFilter, _ wider: LibraryFilter) -> Bool {
    var (a, b) = (narrower, wider)
    (a.words, a.placeWords, b.words, b.placeWords) = ([], [], [], [])
    guard a == b, narrower.words.count >= wider.words.count else { return false }
    for (offset, word) in wider.words.enumerated() {
      let longer = narrower.words[offset]
      guard contains(lowered(longer.utf8), lowered(word.utf8)) else { return false }
      if wider.placeWords.contains(word) && !narrower.placeWords.contains(longer) { return false }
    }
    return true
  }

  /// The rows within the filter's days (newest first: a slice).
  func dayRange(_ filter: LibraryFilter) -> Range<Int> {
    // The first row at or before `day`, days going down.
    func firstRow(atOrBefore day: Int) -> Int {
      var (low, high) = (0, days.count)
      while low < high {
        let middle = (low + high) / 2
        if Int(days[middle]) > day { low = middle + 1 } else { high = middle }
      }
      return low
    }
    let start = filter.lastDay.map(firstRow(atOrBefore:)) ?? 0
    let end = filter.firstDay.map { firstRow(atOrBefore: $0 - 1) } ?? days.count
    return start..<max(start, end)
  }

  /// Photos per day of `rows`, with the day's places most photos first,
  /// as `LibraryIndex.dayCounts` gives them.
  func dayCounts(of rows: [Int32]) -> [DayCount] {
    var counts: [DayCount] = []
    var places: [(place: Int32, count: Int)] = []
    var at = 0
    while at < rows.count {
      let day = days[Int(rows[at])]
      var count = DayCount(day: Int(day), count: 0)
      places.removeAll(keepingCapacity: true)
      while at < rows.count, days[Int(rows[at])] == day {
        let row = Int(rows[at])
        count.count += 1
        if kinds[row] & Self.videoBit != 0 { count.videos += 1 }
        let place = self.places[row]
        if place >= 0 {
          if let seen = places.firstIndex(where: { $0.place == place }) {
            places[seen].count += 1
          } else {
            places.append((place, 1))
          }
        }
        at += 1
      }
      var byName: [String: Int] = [:]
      for (place, photos) in places { byName[placeNames[Int(place)], default: 0] += photos }
      count.places = byName.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map(\.key)
      counts.append(count)
    }
    return counts
  }
}

/// A filter made ready for rows: each word tested once against every
/// folder, camera and place, so a row costs array reads and its name.
struct RowTest {
  struct Word {
    var folders: [Bool]
    var cameras: [Bool]
    var places: [Bool]
    /// Nil for a place word: it matches the place or the folder only.
    var name: [UInt8]?
  }

  var words: [Word] = []
  /// Cameras whose make and model, model or lens hold the whole phrase;
  /// nil when every word is a place word (no phrase is a camera).
  var phraseCameras: [Bool]?
  /// Nil: any place or none.
  var allowedPlaces: [Bool]?
  var wantedKinds: UInt8 = 0
  var unwantedKinds: UInt8 = 0
  var culling: CullingFilter
  var labels: [Bool]

  init(_ filter: LibraryFilter, in catalog: SearchCatalog) {
    culling = filter.culling
    labels = (0...ColorLabel.allCases.count).map { raw in
      ColorLabel(rawValue: raw).map(filter.culling.labels.contains) ?? false
    }
    for kind in filter.kinds.wanted { wantedKinds |= Self.bit(kind) }
    for kind in filter.kinds.unwanted { unwantedKinds |= Self.bit(kind) }
    if !filter.places.isEmpty || !filter.placeKeys.isEmpty {
      let asked = filter.places.map { SearchCatalog.lowered(PlaceText.folded($0).utf8) }
      let keys = Set(filter.placeKeys.map(Int64.init))
      allowedPlaces = catalog.placeKeys.indices.map { place in
        (asked.isEmpty || asked.contains { SearchCatalog.contains(catalog.placeWords[place], $0) })
          && (keys.isEmpty || keys.contains(catalog.placeKeys[place]))
      }
    }
    for word in filter.words {
      let lowered = SearchCatalog.lowered(word.utf8)
      let folded = SearchCatalog.lowered(PlaceText.folded(word).utf8)
      let isPlace = filter.placeWords.contains(word)
      words.append(
        Word(
          folders: catalog.folderPaths.map { SearchCatalog.contains($0, lowered) },
          cameras: catalog.cameraFields.map { camera in
            !isPlace
              && [camera.make, camera.model, camera.lens].contains { SearchCatalog.contains($0, lowered) }
          },
          places: catalog.placeWords.map { SearchCatalog.contains($0, folded) },
          name: isPlace ? nil : lowered))
    }
    if !filter.words.isEmpty && !filter.words.allSatisfy(filter.placeWords.contains) {
      let phrase = SearchCatalog.lowered(filter.words.joined(separator: " ").utf8)
      phraseCameras = catalog.cameraFields.map { camera in
        [camera.makeAndModel, camera.model, camera.lens].contains { SearchCatalog.contains($0, phrase) }
      }
    }
  }

  static func bit(_ kind: KindFilter.Kind) -> UInt8 {
    switch kind {
    case .photo: SearchCatalog.photoBit
    case .video: SearchCatalog.videoBit
    case .live: SearchCatalog.liveBit
    case .raw: SearchCatalog.rawBit
    }
  }

  func keeps(_ row: Int, ratings: [Int8], labels rowLabels: [Int8], catalog: SearchCatalog) -> Bool {
    let place = Int(catalog.places[row])
    if let allowedPlaces, place < 0 || !allowedPlaces[place] { return false }
    let kinds = catalog.kinds[row]
    if wantedKinds != 0 && kinds & wantedKinds == 0 { return false }
    if kinds & unwantedKinds != 0 { return false }
    if !culling.isEmpty {
      let rating = Int(ratings[row])
      if let minimum = culling.minRating, rating < minimum { return false }
      if let maximum = culling.maxRating, rating > maximum { return false }
      if culling.hidesRejected && rating < 0 { return false }
      if !culling.labels.isEmpty {
        let label = Int(rowLabels[row])
        if label < 0 || label >= labels.count || !labels[label] { return false }
      }
    }
    if words.isEmpty { return true }
    let camera = Int(catalog.cameras[row])
    if let phraseCameras, phraseCameras[camera] { return true }
    let folder = Int(catalog.folders[row])
    for word in words {
      if folder >= 0 && word.folders[folder] { continue }
      if word.cameras[camera] { continue }
      if place >= 0 && word.places[place] { continue }
      guard let name = word.name else { return false }
      if nameHolds(row, name, catalog) { continue }
      if kinds & SearchCatalog.copiesBit != 0,
        catalog.copyFolders[Int32(row)]?.contains(where: { word.folders[Int($0)] }) == true
      {
        continue
      }
      return false
    }
    return true
  }

  private func nameHolds(_ row: Int, _ word: [UInt8], _ catalog: SearchCatalog) -> Bool {
    let start = Int(catalog.nameStarts[row])
    let end = Int(catalog.nameStarts[row + 1])
    return catalog.names.withUnsafeBufferPointer { names in
      word.withUnsafeBufferPointer { needle in
        SearchCatalog.contains(UnsafeBufferPointer(rebasing: names[start..<end]), needle)
      }
    }
  }
}
