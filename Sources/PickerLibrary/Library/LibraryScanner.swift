import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How far a scan has come, for the status line and `index`'s bar.
public struct ScanProgress: Hashable, Sendable {
  /// Photos seen so far (read or found unchanged).
  public var done: Int
  /// About how many there are: what the index held, or what was found.
  public var estimate: Int
  /// Photos whose headers were read (new or changed).
  public var read: Int
  public var seconds: Double

  /// "Indexing 12,340 of ~50,000 · 4,800/s"; "Indexing 2,048 so far ·
  /// 4,800/s" while the total is not known (an estimate that is only the
  /// count so far would say nothing).
  public var label: String {
    let rate = seconds > 0 ? Int(Double(done) / seconds) : 0
    let total = estimate > done ? " of ~\(estimate.formatted())" : " so far"
    return "Indexing \(done.formatted())\(total) · \(rate.formatted())/s"
  }
}

/// What a finished scan did.
public struct ScanSummary: Hashable, Sendable {
  public var photos = 0
  public var read = 0
  public var removed = 0
  public var moved = 0
  /// Folders that could not be opened (skipped; their photos kept).
  public var unreadableFolders = 0

  /// Whether the index changed: a photo read, moved or gone.
  public var changedAnything: Bool { read + removed + moved > 0 }
}

/// Walks the library roots and brings the index up to date: new and
/// changed files (size, mtime or inode differ) have their headers read,
/// unchanged ones are not opened, moved ones keep their row, and rows of
/// files gone are removed once the whole walk has finished. Hidden folders
/// and folders holding `.nomedia` are skipped; links to folders are
/// followed once (loops end). Batches are committed as they fill, so a
/// killed scan leaves a consistent index that the next one continues.
public final class LibraryScanner {
  let database: SQLiteDatabase
  let filter: LibraryFilter
  /// Headers read per committed batch.
  var batchSize = 2_048
  /// Asked between files: true ends the scan where it is (what was
  /// committed stays; rows of files not reached are not removed).
  var isCancelled: () -> Bool = { false }
  /// With nothing indexed yet under the roots, count the photo files
  /// first, for a total that a progress bar can fill up to.
  var countsFilesFirst = false
  /// The last believable day; a test moves the clock with it.
  var latestDay = PhotoMetadataReader.latestBelievableDay()

  /// A file seen on disk: where, and the stat facts that tell a change.
  struct FileFacts {
    var folderID: Int64
    var name: [UInt8]
    var path: PathBytes
    var size: Int64
    var mtime: Int64
    var inode: Int64
    var modified: timespec
    var rowID: Int64?
    /// The files beside it that may date it, and their mtimes summed.
    var sidecars = SidecarPaths()
    var sidecarStamp: Int64 = 0
    /// A Live Photo's MOV beside it, by name (in the stamp too).
    var liveVideo: [UInt8]?
  }

  struct Identity: Hashable {
    var inode: Int64
    var size: Int64
    var mtime: Int64
  }

  /// Names the photos' positions; nil: none are named.
  let placeNamer: PlaceNamer?

  public init(database: SQLiteDatabase, roots: [PathBytes], placeNamer: PlaceNamer? = PlaceData.namer) {
    self.database = database
    self.filter = LibraryFilter(roots: roots)
    self.placeNamer = placeNamer
  }

  /// Scans every root; `progress` is called as batches commit (from this
  /// thread). Throws only when the index itself fails.
  public func scan(progress: (ScanProgress) -> Void = { _ in }) throws(SQLiteError) -> ScanSummary {
    let started = Date()
    var summary = ScanSummary()
    var seen = Set<Int64>()
    var inserted: [Identity: Int64] = [:]
    var pending: [FileFacts] = []
    var estimate = try count()
    if estimate == 0 && countsFilesFirst { estimate = Self.countPhotoFiles(under: filter.roots) }
    var visited = Set<[Int64]>()
    var folders = filter.roots
    let statements = try Statements(database)
    let places = try IndexedPlaces(database: database, namer: placeNamer)
    try takeRefusedDatesNowPassed()
    // Cameras written to the camera table in this scan.
    var cameras: Set<[String]> = []

    func flush() throws(SQLiteError) {
      guard !pending.isEmpty else { return }
      let batch = pending
      pending = []
      var read = [(metadata: PhotoMetadata, place: Int?)?](repeating: nil, count: batch.count)
      let latestDay = self.latestDay
      let namer = placeNamer
      read.withUnsafeMutableBufferPointer { results in
        let results = SharedBuffer(results)
        DispatchQueue.concurrentPerform(iterations: batch.count) { index in
          let file = batch[index]
          var metadata = PhotoMetadataReader.read(
            path: file.path, name: file.name, modified: file.modified, latestDay: latestDay, sidecars: file.sidecars)
          // An empty file (a failed sync, a cloud placeholder) is damage to
          // show on its own tile, never a frame of a burst by its name.
          if file.size == 0 { metadata.burstID = nil }
          // Named beside the header, on both cores: a few microseconds each.
          var place: Int?
          if let namer, let latitude = metadata.latitude, let longitude = metadata.longitude {
            place = namer.key(latitude: latitude, longitude: longitude)
          }
          results.buffer[index] = (metadata, place)
        }
      }
      try database.transaction { () throws(SQLiteError) in
        for (file, result) in zip(batch, read) {
          guard let (metadata, place) = result else { continue }
          try places.remember(place)
          let camera = [metadata.make, metadata.model, metadata.lens]
          if camera != ["", "", ""], cameras.insert(camera).inserted { try statements.addCamera.run(camera) }
          let id = try statements.write(file, metadata, place: place)
          seen.insert(id)
          if file.rowID == nil { inserted[Identity(inode: file.inode, size: file.size, mtime: file.mtime)] = id }
        }
      }
      summary.read += batch.count
      progress(
        ScanProgress(
          done: summary.photos, estimate: estimate, read: summary.read, seconds: Date().timeIntervalSince(started)))
    }

    while let folder = folders.popLast() {
      if isCancelled() { return summary }
      guard let info = DirectoryReader.status(folder), (info.st_mode & S_IFMT) == S_IFDIR else { continue }
      // A link back up the tree would walk for ever.
      guard visited.insert([Int64(info.st_dev), Int64(info.st_ino)]).inserted else { continue }
      guard let entries = try? DirectoryReader.readAll(folder) else {
        summary.unreadableFolders += 1
        // Its photos stay indexed: unreadable is not gone.
        try keepRows(under: folder, in: &seen)
        continue
      }
      if entries.contains(where: { $0.name == Array(".nomedia".utf8) }) { continue }
      let folderID = try statements.folderID(folder)
      let known = try statements.rows(in: folderID)
      let fileNames = entries.filter { !$0.isFolder }.map(\.name)
      let sidecars = Sidecars(names: fileNames)
      // A Live Photo is its still: the MOV beside it is no entry of its own.
      let liveMovies = LivePhotos.pairedMovies(among: fileNames)
      for entry in entries where !PhotoFileTypes.isHidden(name: entry.name) {
        let path = folder.appending(entry.name)
        if entry.isFolder {
          folders.append(path)
          continue
        }
        guard PhotoFileTypes.isShown(name: entry.name), !liveMovies.contains(entry.name),
          let stat = DirectoryReader.status(path),
          (stat.st_mode & S_IFMT) == S_IFREG
        else { continue }
        summary.photos += 1
        let modified = Self.modified(stat)
        // Wrapping: an mtime past 2262 (ext4 allows 2446) is still a stamp.
        let mtime = Int64(modified.tv_sec) &* 1_000_000_000 &+ Int64(modified.tv_nsec)
        var file = FileFacts(
          folderID: folderID, name: entry.name, path: path, size: Int64(stat.st_size), mtime: mtime,
          inode: Int64(stat.st_ino), modified: modified)
        let found = sidecars.sidecars(of: entry.name)
        if !found.isEmpty {
          (file.sidecars, file.sidecarStamp) = Self.sidecars(found, in: folder)
          // Kept by name, when it is a file there.
          file.liveVideo = file.sidecars.liveVideo == nil ? nil : found.liveVideo
        }
        if let row = known[entry.name] {
          file.rowID = row.id
          if row.size == file.size && row.mtime == file.mtime && row.inode == file.inode
            && row.sidecarStamp == file.sidecarStamp
          {
            seen.insert(row.id)
            continue
          }
        }
        pending.append(file)
        if pending.count >= batchSize { try flush() }
      }
    }
    try flush()
    (summary.removed, summary.moved) = try removeUnseen(seen: seen, inserted: inserted)
    if summary.changedAnything {
      try pairLivePhotosByContentID()
      try placeClipsByNearestPhotos()
    }
    progress(
      ScanProgress(
        done: summary.photos, estimate: summary.photos, read: summary.read, seconds: Date().timeIntervalSince(started)))
    return summary
  }

  /// Dates refused as ahead of the clock when read, that it has passed
  /// since: taken now, without reading the files.
  private func takeRefusedDatesNowPassed() throws(SQLiteError) {
    try database.prepare(
      """
      UPDATE photo SET taken = refused, origin = refused_origin, offset = refused_offset,
        refused = NULL, refused_origin = NULL, refused_offset = NULL
      WHERE refused IS NOT NULL AND refused < ?
      """
    ).run([Int64(latestDay + 1) * TakenDate.millisecondsPerDay])
  }

  /// The sidecars' paths, and their mtimes (ns) summed: what tells the
  /// next scan that one was added, changed or removed.
  static func sidecars(_ found: Sidecars.Found, in folder: PathBytes) -> (SidecarPaths, Int64) {
    var paths = SidecarPaths()
    var stamp: Int64 = 0
    // A Live Photo's MOV coming or going is seen as a sidecar's would be.
    let kinds: [([UInt8]?, WritableKeyPath<SidecarPaths, PathBytes?>)] = [
      (found.xmp, \.xmp), (found.takeout, \.takeout), (found.liveVideo, \.liveVideo),
    ]
    for (kind, (name, field)) in kinds.enumerated() {
      guard let name else { continue }
      let path = folder.appending(name)
      guard let info = DirectoryReader.status(path), (info.st_mode & S_IFMT) == S_IFREG else { continue }
      let time = modified(info)
      let nanoseconds = Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
      stamp &+= nanoseconds &+ Int64(kind)
      paths[keyPath: field] = path
      if field == \.xmp { paths.xmpModified = nanoseconds }
    }
    return (paths, stamp)
  }

  /// Rows under the roots no longer on disk: a new row with the same
  /// inode, size and mtime is the same file moved, so the old row (and what
  /// it keeps) takes the new place; the rest are deleted.
  private func removeUnseen(seen: Set<Int64>, inserted: [Identity: Int64]) throws(SQLiteError) -> (Int, Int) {
    let (condition, parameters) = filter.condition()
    let all = try database.prepare(
      "SELECT p.id, p.inode, p.size, p.mtime FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition)")
    all.bind(parameters)
    var gone: [(id: Int64, identity: Identity)] = []
    while try all.step() {
      guard !seen.contains(all.int(0)) else { continue }
      gone.append((all.int(0), Identity(inode: all.int(1), size: all.int(2), mtime: all.int(3))))
    }
    guard !gone.isEmpty else { return (0, 0) }
    var moved = 0
    try database.transaction { () throws(SQLiteError) in
      let delete = try database.prepare("DELETE FROM photo WHERE id = ?")
      let place = try database.prepare("SELECT folder, name FROM photo WHERE id = ?")
      let rename = try database.prepare("UPDATE photo SET folder = ?, name = ? WHERE id = ?")
      for (id, identity) in gone {
        if let newID = inserted[identity] {
          // Copy the new place into the old row, then drop the new row.
          place.bind([newID])
          guard try place.step() else { continue }
          let (folder, name) = (place.int(0), place.bytes(1))
          place.bind([])
          // Taken again from the file it is: the old row keeps its id.
          try delete.run([newID])
          try rename.run([folder, name, id])
          moved += 1
        } else {
          try delete.run([id])
        }
      }
    }
    return (gone.count - moved, moved)
  }

  /// Marks the rows of an unreadable folder (and below) as seen.
  private func keepRows(under folder: PathBytes, in seen: inout Set<Int64>) throws(SQLiteError) {
    let (condition, parameters) = LibraryFilter(roots: [folder]).condition()
    let rows = try database.prepare("SELECT p.id FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition)")
    rows.bind(parameters)
    while try rows.step() { seen.insert(rows.int(0)) }
  }

  /// Photos the index holds under the roots.
  /// Photo files under `roots` by their names (hidden ones and folders
  /// with .nomedia left out, as the scan does): a readdir walk, no stat.
  static func countPhotoFiles(under roots: [PathBytes]) -> Int {
    var folders = roots
    var visited = Set<[Int64]>()
    var count = 0
    while let folder = folders.popLast() {
      guard let info = DirectoryReader.status(folder), (info.st_mode & S_IFMT) == S_IFDIR,
        visited.insert([Int64(info.st_dev), Int64(info.st_ino)]).inserted,
        let entries = try? DirectoryReader.readAll(folder),
        !entries.contains(where: { $0.name == Array(".nomedia".utf8) })
      else { continue }
      for entry in entries where !PhotoFileTypes.isHidden(name: entry.name) {
        if entry.isFolder {
          folders.append(folder.appending(entry.name))
        } else if PhotoFileTypes.isShown(name: entry.name) {
          count += 1
        }
      }
    }
    return count
  }

  private func count() throws(SQLiteError) -> Int {
    let (condition, parameters) = filter.condition()
    let statement = try database.prepare(
      "SELECT count(*) FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition)")
    statement.bind(parameters)
    _ = try statement.step()
    let count = Int(statement.int(0))
    statement.bind([])
    return count
  }

  /// A file time as nanoseconds (wrapping past 2262).
  static func nanoseconds(_ time: timespec) -> Int64 {
    Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
  }

  static func modified(_ info: stat) -> timespec {
    #if canImport(Darwin)
      return info.st_mtimespec
    #else
      return info.st_mtim
    #endif
  }
}
