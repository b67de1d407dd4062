import Foundation

/// The library index: what the headers say of every photo under the
/// library roots (date taken and its origin, size, camera, lens, place),
/// in an SQLite file in `$XDG_CACHE_HOME/picker-tui/`. It can always be
/// rebuilt: a damaged or foreign file is set aside and started anew.
public final class LibraryIndex: @unchecked Sendable {
  /// The tables' own fingerprint: any change to them (a field added to
  /// `PhotoMetadata.fields`, a column, an index, a trigger) gives another,
  /// and an index made with another is rebuilt. Nothing to bump by hand.
  static let schemaVersion: String = {
    // FNV-1a: stable from run to run and build to build, unlike Hasher.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in (tables + dayCountSchema).utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }()
  let database: SQLiteDatabase
  /// Where it lives; nil when it is in memory (the cache folder cannot be
  /// written), so a second connection cannot be opened.
  public let path: String?
  /// What happened on open that the user should hear of (set aside, in memory).
  public private(set) var notice: String?
  /// Guards `database`: statements are not shared between threads.
  let lock = NSLock()
  /// A read-only connection kept beside `database`, for the other half
  /// of a big read by id (`LibraryIndex+Halves`): opened on first use,
  /// `.some(nil)` when it could not be (then not tried again). Under
  /// `sideLock`.
  var sideReader: SQLiteDatabase??
  let sideLock = NSLock()

  public static func defaultPath(environment: [String: String]) -> String {
    PrivateFiles.cacheFolder(environment: environment) + "/library.sqlite"
  }

  /// Opens the index at `path`, creating it; a file that is not a usable
  /// index is moved to `path.corrupt` and a new one made; when the folder
  /// cannot be written, the index lives in memory for this run.
  public init(path: String?) {
    var notice: String?
    var opened: (SQLiteDatabase, String?)?
    if let path {
      let folder = (path as NSString).deletingLastPathComponent
      Self.makePrivate(path, in: folder)
      do {
        opened = (try Self.open(path), path)
      } catch let error where error.isCorruption {
        let aside = path + ".corrupt"
        for suffix in ["", "-wal", "-shm"] {
          try? FileManager.default.removeItem(atPath: aside + suffix)
          try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        notice = "the library index \(path) was damaged: set aside as \(aside) and rebuilt"
        Self.makePrivate(path, in: folder)
        opened = try? (Self.open(path), path)
      } catch {
        opened = nil
      }
      if opened == nil {
        notice = "cannot write the library index in \(folder): indexing in memory for this run"
      }
    }
    // In memory: always opens.
    let (database, where_) = opened ?? ((try? Self.open(":memory:"))!, nil)
    self.database = database
    self.path = where_
    self.notice = notice
  }

  /// The index holds where photos were taken (GPS is personal data): its
  /// folder is 0700 and its files 0600, an older index's made so too.
  /// SQLite gives the -wal and -shm files the database file's mode.
  private static func makePrivate(_ path: String, in folder: String) {
    _ = PrivateFiles.makeFolder(folder)
    chmod(folder, 0o700)
    let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    if descriptor >= 0 { close(descriptor) }
    for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, 0o600) }
  }

  /// Settings every connection to the file shares.
  static let connectionPragmas = "PRAGMA mmap_size = 268435456;"

  private static func open(_ path: String) throws(SQLiteError) -> SQLiteDatabase {
    let database = try SQLiteDatabase(path: path)
    // A file that is not a database fails here, before anything is written.
    let version = try? database.prepare("SELECT value FROM meta WHERE key = 'schema'")
    let found = try version?.step() == true ? version?.text(0) : nil
    // Done with: a statement still on its row locks the table it reads,
    // and DROP TABLE would fail (then every upgrade fell back to memory).
    version?.bind([])
    if let found, found != schemaVersion {
      // An index of another version: start anew, it is only a cache. Every
      // table it has goes (their triggers and indexes with them), whatever
      // the version that made it.
      let names = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      var tables: [String] = []
      while try names.step() { tables.append(names.text(0) ?? "") }
      names.bind([])
      try database.execute(
        tables.filter { !$0.hasPrefix("sqlite_") }.map { "DROP TABLE IF EXISTS \"\($0)\";" }.joined())
    }
    if path != ":memory:" { try database.execute("PRAGMA journal_mode = WAL") }
    try database.execute(
      """
      PRAGMA synchronous = NORMAL;
      \(connectionPragmas)
      CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
      INSERT OR IGNORE INTO meta VALUES ('schema', '\(schemaVersion)');
      """)
    try database.execute(tables)
    try database.execute(dayCountSchema)
    // Checks the file really is one of ours now (a damaged page shows here).
    _ = try database.prepare("SELECT count(*) FROM photo WHERE id < 0").step()
    return database
  }

  /// The index's tables but meta, `dayCountSchema`'s apart.
  static let tables: String = {
    let metadataColumns = PhotoMetadata.columns.map { "\($0.column!) \($0.declaration)" }.joined(separator: ",\n  ")
    return """
      CREATE TABLE IF NOT EXISTS folder(id INTEGER PRIMARY KEY, path BLOB NOT NULL UNIQUE);
      CREATE TABLE IF NOT EXISTS photo(
        id INTEGER PRIMARY KEY,
        folder INTEGER NOT NULL,
        name BLOB NOT NULL,
        size INTEGER NOT NULL,
        mtime INTEGER NOT NULL,
        inode INTEGER NOT NULL,
        -- The metadata record (PhotoMetadata.fields): the date taken and its
        -- origin, size, camera, place, burst, length, Live Photo id.
        \(metadataColumns),
        -- What stacking needs of the picture (PhotoSignature), filled in
        -- after the scan for photos with a neighbour close in time; a
        -- sharpness of -1 marks a file that could not be decoded.
        hash INTEGER, sharpness REAL,
        -- Copies (CopyFinder): hashes of the file's head and tail and of all
        -- of it, read for files whose size another shares; the photo shown
        -- for this one when it is a copy, and how many copies one shown has.
        head_hash INTEGER, content_hash INTEGER, copy_of INTEGER, copies INTEGER NOT NULL DEFAULT 0,
        -- Where it was taken: a key of the place it is in (PlaceNamer.key).
        place INTEGER,
        -- The mtimes of the sidecars that may date it (Sidecars), summed: a
        -- sidecar added, changed or removed reads the photo again.
        sidecar_mtime INTEGER NOT NULL DEFAULT 0,
        -- A Live Photo's MOV beside it (LivePhotos), by name.
        live_video BLOB,
        -- For a Live Photo's MOV paired by content identifier, the still's
        -- id: such a MOV is not listed (LibraryScanner+LivePairs).
        live_of INTEGER);
      CREATE INDEX IF NOT EXISTS photo_refused ON photo(refused) WHERE refused IS NOT NULL;
      -- The names of the places photos are in, as the user wants them
      -- (corrections applied); words: the three folded, for search.
      CREATE TABLE IF NOT EXISTS place(
        id INTEGER PRIMARY KEY, city TEXT, region TEXT, country TEXT NOT NULL, code TEXT NOT NULL, words TEXT NOT NULL);
      -- Every camera and lens seen ('' where not said), never pruned: a
      -- search word that names one is no place word (LibraryFilter.placeWords).
      CREATE TABLE IF NOT EXISTS camera(
        make TEXT NOT NULL, model TEXT NOT NULL, lens TEXT NOT NULL, PRIMARY KEY (make, model, lens)) WITHOUT ROWID;
      CREATE UNIQUE INDEX IF NOT EXISTS photo_path ON photo(folder, name);
      CREATE INDEX IF NOT EXISTS photo_taken ON photo(taken, name);
      CREATE INDEX IF NOT EXISTS photo_size ON photo(size);
      CREATE INDEX IF NOT EXISTS photo_copy ON photo(copy_of) WHERE copy_of IS NOT NULL;
      CREATE INDEX IF NOT EXISTS photo_content ON photo(content_id) WHERE content_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS photo_live_of ON photo(live_of) WHERE live_of IS NOT NULL;
      CREATE INDEX IF NOT EXISTS photo_utc_clip ON photo(zone) WHERE zone IN (3, 4);
      """
  }()

  /// Photos per folder, day and place, kept by triggers as rows come and
  /// go: the timeline's shape, where a deep page starts and the places of
  /// each day's header, without reading every photo row, so a library of a
  /// million photos opens as fast as a small one. A photo without a place
  /// counts under place -1. A copy of a photo shown (`copy_of`) is not
  /// counted: the timeline shows each photo once; nor is a Live Photo's
  /// MOV paired by content identifier (`live_of`).
  static let dayCountSchema: String = {
    func day(_ taken: String) -> String {
      // Integer division rounds towards zero: days before 1970 need floor.
      "CASE WHEN \(taken) >= 0 THEN \(taken) / 86400000 ELSE (\(taken) + 1) / 86400000 - 1 END"
    }
    let key = "folder = OLD.folder AND day = \(day("OLD.taken")) AND place = ifnull(OLD.place, -1)"
    // A video is a row with a duration; headers say "3 photos, 1 video".
    let add =
      "INSERT INTO day_count SELECT NEW.folder, \(day("NEW.taken")), ifnull(NEW.place, -1), 1,"
      + " NEW.duration IS NOT NULL WHERE NEW.copy_of IS NULL AND NEW.live_of IS NULL"
      + " ON CONFLICT(folder, day, place) DO UPDATE SET count = count + 1, videos = videos + excluded.videos;"
    let remove =
      "UPDATE day_count SET count = count - 1, videos = videos - (OLD.duration IS NOT NULL)"
      + " WHERE \(key) AND OLD.copy_of IS NULL AND OLD.live_of IS NULL;"
      + " DELETE FROM day_count WHERE \(key) AND count <= 0;"
    return """
      CREATE TABLE IF NOT EXISTS day_count(
        folder INTEGER NOT NULL, day INTEGER NOT NULL, place INTEGER NOT NULL, count INTEGER NOT NULL,
        videos INTEGER NOT NULL, PRIMARY KEY (folder, day, place)
      ) WITHOUT ROWID;
      CREATE TRIGGER IF NOT EXISTS photo_added AFTER INSERT ON photo BEGIN \(add) END;
      CREATE TRIGGER IF NOT EXISTS photo_removed AFTER DELETE ON photo BEGIN \(remove) END;
      CREATE TRIGGER IF NOT EXISTS photo_changed AFTER UPDATE OF folder, taken, copy_of, place, live_of, duration ON photo
        BEGIN \(remove) \(add) END;
      """
  }()

  /// A second connection to the same file, for a scan on another thread;
  /// nil for an index in memory (which scans on this connection).
  func secondConnection() -> SQLiteDatabase? {
    guard let path else { return nil }
    return try? SQLiteDatabase(path: path)
  }

  /// Runs `body` with the connection, one thread at a time.
  package func withDatabase<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(database)
  }

  /// Brings the index up to date for `roots` (`LibraryScanner`), on this
  /// connection: listings wait meanwhile.
  /// `countsFirst`: a first scan counts the photo files before it reads
  /// any (names only, no headers), so a progress bar has a real total.
  public func scan(
    _ roots: [PathBytes], countsFirst: Bool = false, progress: (ScanProgress) -> Void = { _ in }
  ) throws(SQLiteError) -> ScanSummary {
    try withDatabase { database throws(SQLiteError) in
      let scanner = LibraryScanner(database: database, roots: roots)
      scanner.countsFilesFirst = countsFirst
      return try scanner.scan(progress: progress)
    }
  }

  /// Marks the copies among the photos under `roots` (`CopyFinder`), on
  /// this connection; returns how many are copies of one shown. `changed`
  /// false: the scan before changed nothing (see `CopyFinder.run`).
  @discardableResult
  public func findCopies(_ roots: [PathBytes], changed: Bool = true) throws(SQLiteError) -> Int {
    try withDatabase { database throws(SQLiteError) in
      try CopyFinder(database: database, roots: roots).run(changed: changed)
    }
  }

  /// Reads the signatures stacking needs (`SignatureReader`) for `roots`,
  /// on this connection; returns how many were read.
  public func readSignatures(_ roots: [PathBytes], maxGap: Double) throws(SQLiteError) -> Int {
    try withDatabase { database throws(SQLiteError) in
      try SignatureReader(database: database, roots: roots).run(maxGap: maxGap)
    }
  }

  /// The size of the index on disk (with its write-ahead log), in bytes.
  /// Folds the write-ahead log into the database file, so the file's size
  /// is the index's own (`index --stats`).
  public func checkpoint() {
    try? withDatabase { database throws(SQLiteError) in try database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
  }

  public var bytesOnDisk: Int64 {
    guard let path else { return 0 }
    return ["", "-wal"].reduce(0) { total, suffix in
      let size = (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? NSNumber)?.int64Value
      return total + (size ?? 0)
    }
  }
}

/// A day of the timeline, how many photos it has, and where they were
/// taken: the places' names, most photos first.
public struct DayCount: Hashable, Sendable {
  public var day: Int
  /// Photos and videos.
  public var count: Int
  public var places: [String]
  /// How many of `count` are videos.
  public var videos: Int

  public init(day: Int, count: Int, places: [String] = [], videos: Int = 0) {
    self.day = day
    self.count = count
    self.places = places
    self.videos = videos
  }
}
