import Foundation

extension TimelineSource {
  /// Whether searches are answered from memory now (the bench waits for it).
  public var isSearchCatalogReady: Bool { lock.withLock { currentCatalog != nil } }

  /// The catalog's size in memory, in bytes; nil before it is read.
  public var searchCatalogBytes: Int? { lock.withLock { currentCatalog?.memoryBytes } }

  /// The catalog read since the last change, if any.
  var currentCatalog: SearchCatalog? { catalog.flatMap { $0.generation == changeCount ? $0 : nil } }

  /// Reads the catalog now if none is current (a listing does it too);
  /// for a host or a bench that wants searches ready before the first.
  public func prepareSearch() { readCatalogIfIdle() }

  /// A page from the catalog, for a listing the index would answer by
  /// reading every row (words, kinds or verdicts); nil when the index's
  /// kept counts answer (none of those), or when there is no catalog to
  /// use (none read yet, or stale), which asks for one to be read.
  func catalogPage(_ filter: LibraryFilter, page: PageRequest) throws -> Page? {
    guard let catalog = lock.withLock({ currentCatalog }) else {
      readCatalogIfIdle()
      return nil
    }
    // Without them the index's kept counts answer at once.
    guard !filter.words.isEmpty || !filter.kinds.isEmpty || !filter.culling.isEmpty else { return nil }
    do {
      let resolved = try index.withPlaceWords(filter)
      let match = try catalog.match(resolved)
      let end = min(page.offset + page.limit, match.rows.count)
      let rows = page.offset < end ? match.rows[page.offset..<end] : []
      let items = try index.photos(ids: rows.map { catalog.ids[Int($0)] }, as: Self.item)
      var result = Page(
        items: items, hasMore: page.offset + rows.count < match.rows.count, total: match.rows.count)
      if page.offset == 0 || lock.withLock({ dayCache[filter] == nil }) {
        let days = catalog.days(of: match)
        result.days = days
        lock.withLock { dayCache[filter] = days }
      }
      // The timeline itself is empty (`--only`, hiding rejected photos aside), not a search in it.
      var unhidden = filter
      unhidden.culling.hidesRejected = self.filter.culling.hidesRejected
      if page.offset == 0, rows.isEmpty, unhidden == self.filter { result.note = emptyRangeNote }
      lock.withLock { catalogAnswers += 1 }
      return result
    } catch let error as SQLiteError {
      throw SourceError("the library index cannot be read: \(error.message)")
    }
  }

  /// Reads the catalog on a thread of its own when none is current and
  /// no scan is changing the index: after a scan, and when a listing finds
  /// it missing.
  func readCatalogIfIdle() {
    let generation: Int? = lock.withLock {
      guard !stopped, !scanning, !catalogReading, currentCatalog == nil else { return nil }
      catalogReading = true
      return changeCount
    }
    guard let generation else { return }
    let roots = filter.roots
    let thread = Thread { [self] in
      let read = onScanConnection { database throws(SQLiteError) in
        try SearchCatalog.read(
          from: database, roots: roots, generation: generation,
          isCancelled: { [self] in lock.withLock { stopped || changeCount != generation } })
      }
      lock.withLock {
        if let read = read ?? nil, read.generation == changeCount { catalog = read }
        catalogReading = false
      }
    }
    thread.name = "search catalog"
    thread.start()
  }

  /// A verdict given: the catalog's copy of it too. One given while the
  /// catalog is read may be missed by the read: it is read again.
  func rememberInCatalog(_ culling: Culling, of path: PathBytes) {
    let (catalog, reading) = lock.withLock { (currentCatalog, catalogReading) }
    if reading {
      lock.withLock {
        changeCount += 1
        self.catalog = nil
      }
    }
    guard let catalog, let id = try? index.photoID(at: path) else { return }
    catalog.setCulling(culling, ofID: id)
  }
}

extension LibraryIndex {
  /// The row id of the photo at `path` (folders absolute, links resolved).
  func photoID(at path: PathBytes) throws(SQLiteError) -> Int64? {
    guard path.bytes.contains(UInt8(ascii: "/")) else { return nil }
    let (folder, name) = (path.parentFolder.bytes, path.lastComponent)
    return try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        "SELECT p.id FROM photo p JOIN folder f ON f.id = p.folder WHERE f.path = ? AND p.name = ?")
      statement.bind([folder, name])
      guard try statement.step() else { return nil }
      let id = statement.int(0)
      statement.bind([])
      return id
    }
  }
}
