import Foundation

/// A local folder and its sub-folders (shown as albums).
///
/// Listings are read once per folder and kept, so paging is slicing. Names
/// sort naturally, folders first; sorting by date stats each entry once, when
/// the user asks for it.
public actor FolderSource: PhotoSource {
  public nonisolated let id: String
  public nonisolated let title: String
  /// The root exactly as given; printed paths start with it.
  public nonisolated let root: PathBytes
  public nonisolated var icon: String { "▤" }
  public nonisolated var capabilities: SourceCapabilities { [.albums, .paging, .sorting, .search] }
  public nonisolated var rootLabel: String { Sanitizer.sanitize(root.bytes) }

  private struct ListingKey: Hashable {
    var folder: FolderID?
    var sort: SortOrder
  }
  private var listings: [ListingKey: [DirectoryEntry]] = [:]
  /// Photos this many seconds or less apart in a listing by date may
  /// stack: their signatures are read in the background once the listing
  /// is made, and the listing announced again. Nil: none are read.
  public nonisolated let stackingGap: Double?
  /// Signatures read so far, by path.
  private var signatures: [[UInt8]: PhotoSignature] = [:]
  /// Videos' lengths read for listings by name, by path: a page listed
  /// again (a change, Back) does not read its headers again.
  private var videoLengths: [[UInt8]: Double?] = [:]
  nonisolated let news: (stream: AsyncStream<SourceChange>, continuation: AsyncStream<SourceChange>.Continuation)

  /// The library index, when the root is indexed (Folders beside
  /// Photos): a search below a folder asks it instead of walking.
  public nonisolated let index: LibraryIndex?

  public init(
    root: PathBytes, title: String = "Files", id: String? = nil, stackingGap: Double? = StackingRule().maxGap,
    kinds: KindFilter = KindFilter(), index: LibraryIndex? = nil
  ) {
    self.root = root
    self.kinds = kinds
    self.index = index
    self.title = title
    self.id = id ?? "folder:" + IdentifierCoding.encode(root.bytes)
    self.stackingGap = stackingGap
    news = AsyncStream<SourceChange>.makeStream(bufferingPolicy: .bufferingNewest(4))
  }

  public nonisolated func changes() -> AsyncStream<SourceChange>? { news.stream }

  /// The picker is done: signatures still to read are not read.
  public nonisolated func stop() {
    stopped.set()
    news.continuation.finish()
  }

  nonisolated let stopped = CancellationFlag()

  /// `--only`: the kinds of file listed (folders always are).
  public nonisolated let kinds: KindFilter

  static func ofKinds(_ kinds: KindFilter, _ entries: [DirectoryEntry]) -> [DirectoryEntry] {
    guard !kinds.isEmpty else { return entries }
    return entries.filter { entry in
      entry.isFolder
        || kinds.matches(
          name: entry.name, isVideo: PhotoFileTypes.isVideo(name: entry.name),
          isLive: entry.isLive || LivePhotos.isMotionPhoto(name: entry.name))
    }
  }

  public func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    makePage(of: shown(try listing(folder, sort: page.sort), in: folder, request: page), in: folder, request: page)
  }

  /// The entries a page is cut from: rejected photos left out when asked.
  private func shown(_ entries: [DirectoryEntry], in folder: FolderID?, request: PageRequest) -> [DirectoryEntry] {
    let entries = Self.ofKinds(kinds, entries)
    guard request.hidesRejected else { return entries }
    let found = verdicts(of: entries, in: folder)
    return entries.indices.filter { !found[$0].isRejected }.map { entries[$0] }
  }

  /// The path of an entry of `folder`.
  func path(of entry: DirectoryEntry, in folder: FolderID?) -> PathBytes {
    root.appending(folder.map { PathBytes(IdentifierCoding.decode($0)).appending(entry.name).bytes } ?? entry.name)
  }

  private struct SearchKey: Hashable {
    var query: String
    var listing: ListingKey
    var hidesRejected: Bool
  }
  /// The photos below each folder searched (by its id, "" for the root),
  /// read on its first search like a listing: the keys typed after it
  /// filter the same list (`FolderSource+Subfolders`).
  var photosBelowFolders: [String: BelowFolder] = [:]
  /// The last search's matches, so its later pages do not filter again.
  private var lastSearch: (key: SearchKey, matches: [DirectoryEntry], note: String?)?

  /// Names in `folder` that contain `query`, ignoring case, then the
  /// photos below it whose path from it holds every word
  /// (`FolderSource+Subfolders`).
  public func search(_ query: String, in folder: FolderID?, page: PageRequest) async throws -> Page {
    let key = SearchKey(
      query: query, listing: ListingKey(folder: folder, sort: page.sort), hidesRejected: page.hidesRejected)
    if let lastSearch, lastSearch.key == key {
      return makePage(of: lastSearch.matches, in: folder, request: page, note: lastSearch.note)
    }
    // Culling words (`rating>=3`, `label:red`) narrow by verdict; the
    // rest is a part of the name.
    var words = query.lowercased().split(separator: " ").map(String.init)
    let wanted = CullingFilter.extract(from: &words)
    let kinds = KindFilter.extract(from: &words)
    let needle = words.joined(separator: " ")
    var matches = shown(try listing(folder, sort: page.sort), in: folder, request: page).filter { entry in
      needle.isEmpty || String(decoding: entry.name, as: UTF8.self).lowercased().contains(needle)
    }
    // A kind searched for lists its files, not folders.
    if !kinds.isEmpty { matches = Self.ofKinds(kinds, matches).filter { !$0.isFolder } }
    var note: String?
    // Words search the folders below too; verdicts alone stay in the folder.
    if !words.isEmpty || !kinds.isEmpty {
      let below = photosBelow(folder, words: words, kinds: kinds)
      matches += below.entries
      if !below.entries.isEmpty || !below.complete {
        note =
          below.complete
          ? "\(below.entries.count) found in folders below this one"
          : "Folders below searched up to \(Self.walkLimit) entries: more may be further down"
      }
      if page.hidesRejected { matches = shown(matches, in: folder, request: page) }
    }
    if !wanted.isEmpty {
      let found = verdicts(of: matches, in: folder)
      matches = matches.indices.filter { !matches[$0].isFolder && wanted.matches(found[$0]) }.map { matches[$0] }
    }
    lastSearch = (key, matches, note)
    return makePage(of: matches, in: folder, request: page, note: note)
  }

  /// Items are made only for the requested slice.
  private func makePage(
    of entries: [DirectoryEntry], in folder: FolderID?, request: PageRequest, note: String? = nil
  ) -> Page {
    let slice = entries.page(request)
    let prefix = folder.map(IdentifierCoding.decode)
    let verdicts = shownVerdicts(of: Array(slice.items), in: folder)
    let items = zip(slice.items, verdicts).map { entry, verdict in
      var item = item(for: entry, relativePath: prefix.map { PathBytes($0).appending(entry.name).bytes } ?? entry.name)
      item.culling = verdict
      return item
    }
    var page = Page(items: items, hasMore: slice.hasMore, total: entries.count)
    if request.offset == 0 { page.note = note }
    return page
  }

  /// The entries of `folder`, read and sorted on first use.
  private func listing(_ folder: FolderID?, sort: SortOrder) throws -> [DirectoryEntry] {
    let key = ListingKey(folder: folder, sort: sort)
    if let cached = listings[key] { return cached }
    let directory = folder.map { root.appending(IdentifierCoding.decode($0)) } ?? root
    var entries = try listings[ListingKey(folder: folder, sort: .name)] ?? Self.readListing(directory)
    // Name order is needed both ways: as the order, or to break ties of
    // equal times (files copied in bulk share one), computed once either way.
    let byName = NaturalOrder.sortedIndices(of: entries.map(\.name), groups: entries.map { $0.isFolder ? 0 : 1 })
    switch sort {
    case .name:
      entries = byName.map { entries[$0] }
    case .date:
      // Newest first by the date taken, as photo apps do: each photo's
      // header is read once (EXIF, else its name, else its file time).
      var nameRank = [Int](repeating: 0, count: entries.count)
      for (rank, index) in byName.enumerated() { nameRank[index] = rank }
      entries = Self.withDatesTaken(entries, in: directory)
      let order = entries.indices.sorted { a, b in
        if entries[a].isFolder != entries[b].isFolder { return entries[a].isFolder }
        let (x, y) = (entries[a].taken?.wallClock ?? 0, entries[b].taken?.wallClock ?? 0)
        if x != y { return x > y }
        return nameRank[a] < nameRank[b]
      }
      entries = order.map { entries[$0] }
      startReadingSignatures(of: entries, in: directory)
    }
    listings[key] = entries
    return entries
  }

  /// A folder's photos and sub-folders, Live Photos paired, with the
  /// verdicts their XMP sidecars give.
  private static func readListing(_ directory: PathBytes) throws -> [DirectoryEntry] {
    var xmpNames: [[UInt8]] = []
    var entries = pairingLivePhotos(try DirectoryReader.read(directory, xmpSidecars: &xmpNames))
    guard !xmpNames.isEmpty else { return entries }
    let sidecars = Sidecars(names: xmpNames + entries.lazy.filter { !$0.isFolder }.map(\.name))
    let found = entries.map { $0.isFolder ? nil : sidecars.sidecars(of: $0.name).xmp }
    entries.withUnsafeMutableBufferPointer { buffer in
      let shared = SharedBuffer(buffer)
      DispatchQueue.concurrentPerform(iterations: found.count) { index in
        guard let name = found[index], let packet = SidecarDates.contents(directory.appending(name)) else { return }
        shared.buffer[index].culling = XMPCulling.verdict(packet)
        shared.buffer[index].xmpModified = DirectoryReader.status(directory.appending(name)).map {
          LibraryScanner.nanoseconds(LibraryScanner.modified($0))
        }
      }
    }
    return entries
  }

  /// Verdicts given in the picker since the listings were read, by path.
  var cullingGiven: [[UInt8]: Culling] = [:]
  /// What the files say (the photo's XMP and its sidecar's), by path,
  /// read for the photos shown and for a search or hiding by verdict.
  var cullingRead: [[UInt8]: Culling] = [:]
  /// Photos whose own XMP is being read for a page, not to be asked twice.
  var cullingReading: Set<[UInt8]> = []

  public func remember(_ culling: Culling, of path: PathBytes) async {
    cullingGiven[path.bytes] = culling
    // A search by verdict is made again.
    lastSearch = nil
  }

  /// Reads, off the actor, the signatures of the photos taken close to
  /// their neighbour in a listing by date, then says the listing changed
  /// (it is listed again, now with stacks).
  private func startReadingSignatures(of entries: [DirectoryEntry], in directory: PathBytes) {
    guard let gap = stackingGap else { return }
    // Videos never stack: they are no one's neighbour.
    let times = entries.map {
      $0.isFolder || PhotoFileTypes.isVideo(name: $0.name) ? nil : StackingRule.seconds($0.taken)
    }
    func close(_ a: Int, _ b: Int) -> Bool {
      guard times.indices.contains(b), let x = times[a], let y = times[b] else { return false }
      return abs(x - y) <= gap
    }
    // A burst's shots too, however far apart: its cover is the sharpest.
    let wanted = entries.indices.filter { close($0, $0 - 1) || close($0, $0 + 1) || entries[$0].burstID != nil }
      .map { directory.appending(entries[$0].name) }
      .filter { signatures[$0.bytes] == nil }
    guard !wanted.isEmpty else { return }
    let news = news.continuation
    let stopped = stopped
    // Decoding blocks: on a queue of its own, not in the tasks' pool.
    DispatchQueue.global(qos: .utility).async { [weak self] in
      var read = [PhotoSignature?](repeating: nil, count: wanted.count)
      read.withUnsafeMutableBufferPointer { results in
        let results = SharedBuffer(results)
        DispatchQueue.concurrentPerform(iterations: wanted.count) { index in
          guard !stopped.isSet else { return }
          results.buffer[index] = PhotoSignature.read(file: wanted[index])
        }
      }
      guard let self, !stopped.isSet else { return }
      let found = Array(zip(wanted, read))
      Task {
        await self.remember(found)
        news.yield(.contentChanged)
      }
    }
  }

  private func remember(_ read: [(PathBytes, PhotoSignature?)]) {
    for case (let path, let signature?) in read { signatures[path.bytes] = signature }
  }

  /// The entries with their photos' dates taken, read on all cores.
  private static func withDatesTaken(_ entries: [DirectoryEntry], in directory: PathBytes) -> [DirectoryEntry] {
    let latestDay = PhotoMetadataReader.latestBelievableDay()
    let namer = PlaceData.namer
    var dated = entries
    dated.withUnsafeMutableBufferPointer { buffer in
      let shared = SharedBuffer(buffer)
      DispatchQueue.concurrentPerform(iterations: entries.count) { index in
        guard !entries[index].isFolder else { return }
        let path = directory.appending(entries[index].name)
        guard let info = DirectoryReader.status(path) else { return }
        let metadata = PhotoMetadataReader.read(
          path: path, name: entries[index].name, modified: LibraryScanner.modified(info), latestDay: latestDay)
        shared.buffer[index].taken = metadata.taken
        // An empty file is damage shown on its own tile, never a burst's frame.
        shared.buffer[index].burstID = info.st_size == 0 ? nil : metadata.burstID
        shared.buffer[index].videoSeconds = metadata.videoSeconds
        if let namer, let latitude = metadata.latitude, let longitude = metadata.longitude,
          let place = namer.place(latitude: latitude, longitude: longitude)
        {
          shared.buffer[index].placeName = place.city ?? place.country
        }
      }
    }
    return dated
  }

  static func videoSeconds(_ path: PathBytes) -> Double? {
    guard let info = DirectoryReader.status(path) else { return nil }
    return PhotoMetadataReader.read(
      path: path, name: [], modified: LibraryScanner.modified(info), latestDay: Int.max / 4
    ).videoSeconds
  }

  /// A Live Photo is its still, marked: the MOV of the same name beside it
  /// is not listed on its own.
  private static func pairingLivePhotos(_ entries: [DirectoryEntry]) -> [DirectoryEntry] {
    let paired = LivePhotos.pairedMovies(among: entries.lazy.filter { !$0.isFolder }.map(\.name))
    guard !paired.isEmpty else { return entries }
    let movs = LivePhotos.movies(among: Array(paired))
    return entries.compactMap { entry in
      guard !entry.isFolder else { return entry }
      if paired.contains(entry.name) { return nil }
      var entry = entry
      entry.isLive = LivePhotos.video(of: entry.name, among: movs) != nil
      return entry
    }
  }

  private func item(for entry: DirectoryEntry, relativePath: [UInt8]) -> PhotoItem {
    let id = IdentifierCoding.encode(relativePath)
    if entry.isFolder {
      // Its path, for a folder chooser (a folder is never picked as a photo).
      var folder = PhotoItem(id: id, kind: .folder(count: nil), title: entry.name)
      folder.outputPath = root.appending(relativePath)
      return folder
    }
    let path = root.appending(relativePath)
    var item = PhotoItem(
      id: id, kind: .photo, title: entry.name, thumbnail: .file(path), original: .file(path),
      outputPath: path)
    item.taken = entry.taken
    item.placeName = entry.placeName
    item.signature = signatures[path.bytes]
    item.burstID = entry.burstID
    item.isLive = entry.isLive || LivePhotos.isMotionPhoto(name: entry.name)
    if PhotoFileTypes.isVideo(name: entry.name) {
      item.isVideo = true
      // A listing by name read no header: a video's length costs a few
      // small reads, for the page's videos only.
      if let seconds = entry.videoSeconds {
        item.videoSeconds = seconds
      } else if let cached = videoLengths[path.bytes] {
        item.videoSeconds = cached
      } else {
        let read = Self.videoSeconds(path)
        videoLengths[path.bytes] = .some(read)
        item.videoSeconds = read
      }
    }
    return item
  }
}
