/// What the index knows of one file, for `--format json`: its metadata
/// record as read on the scan, its size, its place, its copies and its
/// Live Photo's video.
public struct IndexedRecord: Hashable, Sendable {
  public var metadata: PhotoMetadata
  public var bytes: Int64
  public var city: String?
  public var region: String?
  public var country: String?
  public var countryCode: String?
  public var copies: [PathBytes] = []
  public var liveVideo: PathBytes?
  /// The file the index has at that row, when looked up by id: a pick
  /// listed as that row takes the record only if it is that file.
  public var path: PathBytes?

  public init(metadata: PhotoMetadata, bytes: Int64) {
    self.metadata = metadata
    self.bytes = bytes
  }
}

extension LibraryIndex {
  /// The records of those of `paths` the index has (absolute, links
  /// resolved, as the index keeps them), by path: one lookup each on the
  /// (folder, name) index, no file read.
  public func records(of paths: [PathBytes]) throws(SQLiteError) -> [PathBytes: IndexedRecord] {
    try withDatabase { database throws(SQLiteError) in
      let statement = try database.prepare(
        "SELECT \(Self.recordColumns) FROM photo p LEFT JOIN place pl ON pl.id = p.place WHERE p.folder = ? AND p.name = ?"
      )
      let folderID = try database.prepare("SELECT id FROM folder WHERE path = ?")
      // Picks come a folder at a time: its id is looked up once.
      var folders: [[UInt8]: Int64?] = [:]
      let copies = try Self.copiesStatement(database)
      var found: [PathBytes: IndexedRecord] = [:]
      for path in paths where found[path] == nil {
        guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { continue }
        let folder = slash == 0 ? [UInt8(ascii: "/")] : Array(path.bytes[..<slash])
        if folders[folder] == nil {
          folderID.bind([folder])
          folders[folder] = try folderID.step() ? folderID.int(0) : Int64?.none
          folderID.bind([])
        }
        guard let id = folders[folder] ?? nil else { continue }
        statement.bind([id, Array(path.bytes[(slash + 1)...])])
        guard try statement.step() else { continue }
        var record = Self.record(from: statement)
        // The index names the MOV beside the still.
        if let name = record.liveVideo { record.liveVideo = PathBytes(folder).appending(name.bytes) }
        if statement.int(17) > 0 { record.copies = try Self.copies(of: statement.int(18), copies) }
        found[path] = record
      }
      statement.bind([])
      copies.bind([])
      return found
    }
  }

  /// The records of photos listed from the index, by their row ids
  /// (`PickedDetails.indexID`): a lookup by rowid each, no path cut or
  /// folder looked up. Each says its file (`path`): the index may have
  /// changed since the listing.
  /// Thousands are read in two halves at once (`inHalves`).
  public func records(ids: [Int64]) throws(SQLiteError) -> [Int64: IndexedRecord] {
    let ids = Set(ids).sorted()
    let records = try inHalves(of: ids) { positions, database, output throws(SQLiteError) in
      let copies = try Self.copiesStatement(database)
      var folders = FolderPaths()
      try Self.eachRow(
        ofIDs: Array(ids[positions]), in: database,
        """
        SELECT \(Self.recordColumns), f.path, p.name
        FROM photo p JOIN folder f ON f.id = p.folder LEFT JOIN place pl ON pl.id = p.place WHERE p.id IN
        """
      ) { statement throws(SQLiteError) in
        let folder = folders.path(at: 23, of: statement)
        var record = Self.record(from: statement)
        record.path = folder.appending(statement.bytes(24))
        if let name = record.liveVideo { record.liveVideo = folder.appending(name.bytes) }
        let id = statement.int(18)
        if statement.int(17) > 0 { record.copies = try Self.copies(of: id, copies) }
        output.append((id, record))
      }
      copies.bind([])
    }
    return Dictionary(records, uniquingKeysWith: { first, _ in first })
  }

  /// The columns `record(from:)` reads, of `p` (the photo) and `pl` (its place).
  static let recordColumns = """
    p.taken, p.origin, p.offset, p.zone, p.width, p.height, p.orientation, p.make, p.model, p.lens,
      p.latitude, p.longitude, p.duration, p.rating, p.label, p.size, p.live_video, p.copies, p.id,
      pl.city, pl.region, pl.country, pl.code
    """

  static func copiesStatement(_ database: SQLiteDatabase) throws(SQLiteError) -> SQLiteStatement {
    try database.prepare(
      "SELECT f.path, c.name FROM photo c JOIN folder f ON f.id = c.folder WHERE c.copy_of = ? ORDER BY f.path, c.name")
  }

  /// The paths of the copies of photo `id`, by path.
  static func copies(of id: Int64, _ statement: SQLiteStatement) throws(SQLiteError) -> [PathBytes] {
    statement.bind([id])
    var paths: [PathBytes] = []
    while try statement.step() { paths.append(PathBytes(statement.bytes(0)).appending(statement.bytes(1))) }
    return paths
  }

  private static func record(from row: SQLiteStatement) -> IndexedRecord {
    var taken = TakenDate(
      wallClock: row.int(0), offsetMinutes: row.isNull(2) ? nil : Int(row.int(2)),
      origin: TakenDate.Origin(rawValue: Int(row.int(1))) ?? .fileTime)
    if !row.isNull(3) { taken.zone = LocalTime.Source(code: Int(row.int(3))) }
    var metadata = PhotoMetadata(taken: taken)
    metadata.width = Int(row.int(4))
    metadata.height = Int(row.int(5))
    metadata.orientation = Int(row.int(6))
    metadata.make = row.text(7) ?? ""
    metadata.model = row.text(8) ?? ""
    metadata.lens = row.text(9) ?? ""
    if !row.isNull(10), !row.isNull(11) {
      metadata.latitude = row.double(10)
      metadata.longitude = row.double(11)
    }
    if !row.isNull(12) {
      metadata.isVideo = true
      let seconds = row.double(12)
      metadata.videoSeconds = seconds > 0 ? seconds : nil
    }
    metadata.culling = Culling(
      rating: Int(row.int(13)), label: row.isNull(14) ? nil : ColorLabel(rawValue: Int(row.int(14))))
    var record = IndexedRecord(metadata: metadata, bytes: row.int(15))
    if !row.isNull(16) { record.liveVideo = PathBytes(row.bytes(16)) }
    record.city = row.text(19)
    record.region = row.text(20)
    record.country = row.text(21)
    record.countryCode = row.text(22)
    return record
  }
}

extension LibraryIndex {
  /// Every file indexed in the folders below `folder` (not in it), copies
  /// included: Folders' search of subfolders, without a walk.
  public func paths(under folder: PathBytes) throws(SQLiteError) -> [PathBytes] {
    let base = folder.bytes == [UInt8(ascii: "/")] ? [] : folder.bytes
    return try withDatabase { database throws(SQLiteError) in
      // Below base/ as bytes: between base/ and base0 ('0' follows '/').
      let statement = try database.prepare(
        "SELECT f.path, p.name FROM photo p JOIN folder f ON f.id = p.folder WHERE f.path > ? AND f.path < ?")
      statement.bind([base + [UInt8(ascii: "/")], base + [UInt8(ascii: "0")]])
      var paths: [PathBytes] = []
      while try statement.step() { paths.append(PathBytes(statement.bytes(0)).appending(statement.bytes(1))) }
      statement.bind([])
      return paths
    }
  }
}
