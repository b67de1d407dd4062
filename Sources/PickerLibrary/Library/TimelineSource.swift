import Foundation

/// "Photos": every photo under the library roots, newest first by the date
/// taken, from the library index; the index is brought up to date in the
/// background while the picker runs, and the timeline fills in as batches
/// commit.
public final class TimelineSource: PhotoSource, @unchecked Sendable {
  public let id = "photos"
  public let title: String
  public var icon: String { "◷" }
  public var capabilities: SourceCapabilities { [.paging, .search, .timeline, .places] }
  /// The roots, then the filters in force, so the screen shows why it
  /// holds fewer photos: "~/Pictures · --since 1 Jan 2023 · --place lisbon".
  public var rootLabel: String {
    var parts = [filter.roots.map { Sanitizer.sanitize($0.bytes) }.joined(separator: ", ")]
    let name = { (day: Int) in CivilDate(dayNumber: day).dayMonthYear }
    if let first = filter.firstDay { parts.append("--since " + name(first)) }
    if let last = filter.lastDay { parts.append("--until " + name(last)) }
    parts += filter.places.map { "--place " + Sanitizer.sanitize($0) }
    return parts.joined(separator: " · ")
  }

  let index: LibraryIndex
  let filter: LibraryFilter
  let lock = NSLock()
  private var continuation: AsyncStream<SourceChange>.Continuation?
  private var stream: AsyncStream<SourceChange>?
  /// Set once the first batch of a scan committed or the scan ended: an
  /// empty index waits for it before it says "nothing here".
  /// No scan runs (none started, or it ended): nothing to wait for.
  private var firstBatch = true
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var lastNews = Date.distantPast
  var scanning = false
  /// A scan was asked for while one ran: it runs again when it ends.
  private var rescanWanted = false
  var stopped = false
  /// Each listing's day counts, from its first page: later pages say its
  /// size too, and start at their day instead of counting rows. Emptied at
  /// each change, so the page asked next counts afresh and carries them.
  var dayCache: [LibraryFilter: [DayCount]] = [:]
  /// Photos this many seconds or less apart may stack: their signatures
  /// are read after each scan (`SignatureReader`). Nil: none are read.
  public var stackingGap: Double? = StackingRule().maxGap
  /// Searches answered from memory (`TimelineSource+Catalog`): the
  /// catalog read at the last change count, whether one is being read,
  /// and the count of changes announced.
  var catalog: SearchCatalog?
  var catalogReading = false
  var changeCount = 0
  /// Pages the catalog answered (the tests tell the two ways apart).
  var catalogAnswers = 0

  /// `firstDay`/`lastDay` restrict the timeline (`--since`, `--until`),
  /// `places` to photos in those places (`--place`).
  public init(
    index: LibraryIndex, roots: [PathBytes], firstDay: Int? = nil, lastDay: Int? = nil, places: [String] = [],
    culling: CullingFilter = CullingFilter(), kinds: KindFilter = KindFilter(), title: String = "Photos"
  ) {
    self.index = index
    var filter = LibraryFilter(roots: roots, firstDay: firstDay, lastDay: lastDay)
    filter.places = places
    filter.culling = culling
    filter.kinds = kinds
    self.filter = filter
    self.title = title
    let (stream, continuation) = AsyncStream<SourceChange>.makeStream(bufferingPolicy: .bufferingNewest(8))
    self.stream = stream
    self.continuation = continuation
  }

  /// Shown again: rescan the roots for files added or removed meanwhile.
  public func refresh() { startScanning() }

  /// The picker is done: the scan ends at its next folder, and the news
  /// stream with it.
  public func stop() {
    lock.withLock { stopped = true }
    continuation?.finish()
    // Waits for the scan and the catalog's reading to leave the index, so
    // a host may close it.
    while lock.withLock({ scanning || catalogReading }) { usleep(2_000) }
  }

  public func changes() -> AsyncStream<SourceChange>? {
    lock.lock()
    defer { lock.unlock() }
    defer { stream = nil }
    return stream
  }

  /// Scans the roots on a thread of its own; the timeline is told as
  /// batches commit (at most a few times a second) and when it ends.
  public func startScanning() {
    // One scan at a time: asked again meanwhile (Photos shown again while
    // signatures are still read), the running one scans once more after.
    guard
      lock.withLock({ () -> Bool in
        if stopped { return false }
        if scanning {
          rescanWanted = true
          return false
        }
        scanning = true
        return true
      })
    else { return }
    lock.withLock { firstBatch = false }
    let thread = Thread { [self] in
      repeat {
        let summary = runScan()
        finishFirstBatch()
        // A rescan that found nothing new, moved or gone leaves what is on
        // screen alone (listing a far window again would only cost).
        // Copies are found among the photos the scan left (a copy made or
        // deleted meanwhile changes which shows).
        let changed = summary?.changedAnything ?? true
        let copiesChanged = findCopies(afterChange: changed)
        if changed || copiesChanged { announceChange() }
        // Then the signatures stacks need, the new photos already shown.
        // A rescan that changed nothing may still find some to read (a
        // stacking gap made larger in the config).
        if readSignatures() > 0 { announceChange() }
      } while lock.withLock({ () -> Bool in
        let again = rescanWanted && !stopped
        rescanWanted = false
        if !again { scanning = false }
        return again
      })
      continuation?.yield(.status(nil))
      readCatalogIfIdle()
    }
    thread.name = "library scan"
    thread.start()
  }

  private func runScan() -> ScanSummary? {
    var announcedRead = 0
    let report: (ScanProgress) -> Void = { [self] progress in
      finishFirstBatch()
      let now = Date()
      guard now.timeIntervalSince(lastNews) > 0.4 else { return }
      lastNews = now
      continuation?.yield(.status(progress.label))
      // Listings change only where headers were read and written.
      if progress.read > announcedRead {
        announcedRead = progress.read
        announceChange()
      }
    }
    return onScanConnection { database throws(SQLiteError) in
      let scanner = LibraryScanner(database: database, roots: filter.roots)
      scanner.isCancelled = { [self] in lock.withLock { stopped } }
      return try scanner.scan(progress: report)
    }
  }

  /// Runs `body` on the connection background work uses: a file index's
  /// own second connection, so listings go on meanwhile; one in memory has
  /// only the one connection. Nil when the index fails.
  func onScanConnection<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) -> T? {
    if let connection = index.secondConnection() { return try? body(connection) }
    return try? index.withDatabase(body)
  }

  /// Marks the copies under the roots (`CopyFinder`); whether any photo
  /// is now shown or hidden that was not.
  private func findCopies(afterChange changed: Bool) -> Bool {
    let finder = onScanConnection { database throws(SQLiteError) in
      let finder = CopyFinder(database: database, roots: filter.roots)
      finder.isCancelled = { [self] in lock.withLock { stopped } }
      _ = try finder.run(changed: changed)
      return finder
    }
    return finder?.changedMarks ?? false
  }

  /// Reads the signatures stacking needs, announcing the stacks as
  /// batches commit; returns how many were read.
  private func readSignatures() -> Int {
    guard let gap = lock.withLock({ stackingGap }) else { return 0 }
    let report: (Int, Int) -> Void = { [self] done, total in
      let now = Date()
      guard now.timeIntervalSince(lastNews) > 0.4 else { return }
      lastNews = now
      continuation?.yield(.status("Reading bursts \(done.formatted()) of \(total.formatted())"))
      announceChange()
    }
    let read = onScanConnection { database throws(SQLiteError) in
      let reader = SignatureReader(database: database, roots: filter.roots)
      reader.isCancelled = { [self] in lock.withLock { stopped } }
      return try reader.run(maxGap: gap, progress: report)
    }
    return read ?? 0
  }

  /// The index changed: counts kept from before are stale.
  private func announceChange() {
    lock.withLock {
      dayCache = [:]
      changeCount += 1
      catalog = nil
    }
    continuation?.yield(.contentChanged)
  }

  private func finishFirstBatch() {
    lock.lock()
    let waiting = firstBatch ? [] : waiters
    firstBatch = true
    waiters = []
    lock.unlock()
    for waiter in waiting { waiter.resume() }
  }

  private func waitForFirstBatch() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      lock.lock()
      if firstBatch {
        lock.unlock()
        waiter.resume()
      } else {
        waiters.append(waiter)
        lock.unlock()
      }
    }
  }

  public func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    guard let folder, let level = PlaceFolder(id: folder) else { return try await list(filter, page: page) }
    switch level {
    case .countries, .country:
      do {
        return Page(items: try placeItems(level), hasMore: false)
      } catch {
        throw SourceError("the library index cannot be read: \(error.message)")
      }
    case .place(let key):
      var narrowed = filter
      narrowed.placeKeys = [key]
      return try await list(narrowed, page: page)
    }
  }

  /// The Places scope's tiles: countries, or a country's places, each
  /// with its photo count and its newest photo as the cover, most photos
  /// first.
  private func placeItems(_ level: PlaceFolder) throws(SQLiteError) -> [PhotoItem] {
    let groups = try index.placeGroups(filter)
    struct Tile {
      var folder: PlaceFolder
      var title: String
      var count = 0
      var newestDay: Int
      /// The places with a photo on that day: the cover is among theirs.
      var newestKeys: [Int]
    }
    var tiles: [Tile] = []
    var byID: [FolderID: Int] = [:]
    func add(_ group: PlaceGroup, as folder: PlaceFolder, title: String) {
      if let at = byID[folder.id] {
        tiles[at].count += group.count
        if group.newestDay > tiles[at].newestDay {
          (tiles[at].newestDay, tiles[at].newestKeys) = (group.newestDay, [group.key])
        } else if group.newestDay == tiles[at].newestDay {
          tiles[at].newestKeys.append(group.key)
        }
      } else {
        byID[folder.id] = tiles.count
        tiles.append(
          Tile(folder: folder, title: title, count: group.count, newestDay: group.newestDay, newestKeys: [group.key]))
      }
    }
    switch level {
    case .countries:
      for group in groups {
        add(
          group, as: .country(code: group.place.countryCode),
          title: group.place.country.isEmpty ? "Elsewhere" : group.place.country)
      }
    case .country(let code):
      let here = groups.filter { $0.place.countryCode == code }
      // Two towns of one name in a country are told apart by their regions.
      var cities: [String: Int] = [:]
      for group in here { cities[group.place.city ?? "", default: 0] += 1 }
      for group in here {
        var title = group.place.city ?? "Elsewhere in \(group.place.country)"
        if let city = group.place.city, cities[city, default: 0] > 1, let region = group.place.region {
          title += ", " + region
        }
        add(group, as: .place(key: group.key), title: title)
      }
    case .place:
      return []
    }
    tiles.sort { $0.count > $1.count || ($0.count == $1.count && $0.title < $1.title) }
    return try tiles.map { tile throws(SQLiteError) in
      var item = PhotoItem(id: tile.folder.id, kind: .folder(count: tile.count), title: Array(tile.title.utf8))
      if let cover = try index.cover(ofPlaces: tile.newestKeys, onDay: tile.newestDay, filter) {
        item.thumbnail = .file(cover)
      }
      return item
    }
  }

  func list(_ filter: LibraryFilter, page: PageRequest) async throws -> Page {
    var filter = filter
    if page.hidesRejected { filter.culling.hidesRejected = true }
    if let page = try catalogPage(filter, page: page) { return page }
    do {
      var days: [DayCount]?
      // A listing's first page counts its days; so does any page of one
      // not counted since the last change (a window listed again after
      // the index changed, far from the top).
      if page.offset == 0 || lock.withLock({ dayCache[filter] == nil }) {
        days = try index.dayCounts(filter)
        if days!.isEmpty {
          await waitForFirstBatch()
          days = try index.dayCounts(filter)
        }
      }
      // Later pages start at their day, found in the first page's counts.
      let known = lock.withLock {
        if let days { dayCache[filter] = days }
        return dayCache[filter]
      }
      let photos = try index.photos(filter, offset: page.offset, limit: page.limit, days: known)
      let total = known.map { $0.reduce(0) { $0 + $1.count } }
      var result = Page(
        items: photos.map(Self.item),
        hasMore: photos.count == page.limit && (total.map { page.offset + photos.count < $0 } ?? true),
        total: total)
      result.days = days
      // The timeline itself is empty (hiding rejected photos aside), not a search in it.
      var unhidden = filter
      unhidden.culling.hidesRejected = self.filter.culling.hidesRejected
      if page.offset == 0, photos.isEmpty, unhidden == self.filter { result.note = emptyRangeNote }
      return result
    } catch {
      throw SourceError("the library index cannot be read: \(error.message)")
    }
  }

  /// Why a timeline restricted by --since, --until or --place is empty,
  /// and what to do (nil when it is not restricted): "No place called
  /// atlantis …", "--since 1 Jan 2030 is after today …", "No photos in
  /// lisbon between 1 Jan 2020 and today".
  var emptyRangeNote: String? {
    let unknown = filter.places.filter { (try? index.knowsPlace($0)) == false }
    if !unknown.isEmpty {
      let names = unknown.map { "“\($0)”" }.joined(separator: ", ")
      return "No place called \(names) where a photo was taken: P lists the places of your photos"
    }
    let today = PhotoMetadataReader.latestBelievableDay() - 1
    let name = { (day: Int) in CivilDate(dayNumber: day).dayMonthYear }
    if let first = filter.firstDay, first > today {
      return "--since \(name(first)) is after today (\(name(today))): no photos yet"
    }
    let places = filter.places.isEmpty ? "" : " in " + filter.places.joined(separator: " or ")
    switch (filter.firstDay, filter.lastDay) {
    case (let first?, let last?):
      return "No photos\(places) between \(name(first)) and \(last >= today ? "today" : name(last))"
    case (let first?, nil): return "No photos\(places) between \(name(first)) and today"
    case (nil, let last?): return "No photos\(places) taken on or before \(name(last))"
    case (nil, nil): return places.isEmpty ? nil : "No photos\(places)"
    }
  }

  static func item(_ photo: IndexedPhoto) -> PhotoItem {
    var item = PhotoItem(
      id: IdentifierCoding.encode(photo.path.bytes), kind: .photo, title: photo.name, thumbnail: .file(photo.path),
      original: .file(photo.path), outputPath: photo.path)
    item.taken = photo.taken
    item.signature = photo.signature
    item.burstID = photo.burstID
    item.copies = photo.copies
    item.isLive = photo.liveVideo != nil || LivePhotos.isMotionPhoto(name: photo.name)
    item.isVideo = PhotoFileTypes.isVideo(name: photo.name)
    item.videoSeconds = photo.videoSeconds
    item.culling = photo.culling
    item.indexID = photo.id
    return item
  }
}
