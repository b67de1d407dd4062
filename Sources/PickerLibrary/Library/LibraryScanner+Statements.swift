import Foundation

extension LibraryScanner {
  /// The statements a scan runs for every folder and file, prepared once.
  struct Statements {
    struct Row {
      var id: Int64
      var size: Int64
      var mtime: Int64
      var inode: Int64
      var sidecarStamp: Int64
    }

    let addFolder: SQLiteStatement
    let findFolder: SQLiteStatement
    let listFolder: SQLiteStatement
    let insert: SQLiteStatement
    let update: SQLiteStatement
    let addCamera: SQLiteStatement
    let database: SQLiteDatabase

    /// What the scan knows of the file itself, before its metadata.
    static let fileColumns = ["folder", "name", "size", "mtime", "inode", "place", "sidecar_mtime", "live_video"]

    init(_ database: SQLiteDatabase) throws(SQLiteError) {
      self.database = database
      addFolder = try database.prepare("INSERT OR IGNORE INTO folder(path) VALUES (?)")
      addCamera = try database.prepare("INSERT OR IGNORE INTO camera(make, model, lens) VALUES (?, ?, ?)")
      findFolder = try database.prepare("SELECT id FROM folder WHERE path = ?")
      listFolder = try database.prepare(
        "SELECT name, id, size, mtime, inode, sidecar_mtime FROM photo WHERE folder = ?")
      // The file's own columns, then the metadata record's (`PhotoMetadata.fields`).
      let columns = (Self.fileColumns + PhotoMetadata.columns.map { $0.column! }).joined(separator: ", ")
      let placeholders = Array(repeating: "?", count: Self.fileColumns.count + PhotoMetadata.columns.count)
        .joined(separator: ", ")
      // Another scan (a second picker, `index` from cron) may have added
      // the same file since its folder was read: then this one updates it.
      let updates = columns.split(separator: ",").dropFirst(2).map { column in
        let name = column.trimmingCharacters(in: .whitespaces)
        return "\(name) = excluded.\(name)"
      }.joined(separator: ", ")
      // A changed file's picture may have changed: its signature and its
      // content hashes are read again.
      let forgetSignature = "hash = NULL, sharpness = NULL, head_hash = NULL, content_hash = NULL"
      insert = try database.prepare(
        "INSERT INTO photo(\(columns)) VALUES (\(placeholders))"
          + " ON CONFLICT(folder, name) DO UPDATE SET \(updates), \(forgetSignature) RETURNING id")
      update = try database.prepare(
        "UPDATE photo SET (\(columns)) = (\(placeholders)), \(forgetSignature) WHERE id = ?"
      )
    }

    /// The folder's row id, added when new (outside a transaction it
    /// commits at once: folders are few).
    func folderID(_ path: PathBytes) throws(SQLiteError) -> Int64 {
      findFolder.bind([path.bytes])
      if try findFolder.step() {
        let id = findFolder.int(0)
        findFolder.bind([])
        return id
      }
      try addFolder.run([path.bytes])
      findFolder.bind([path.bytes])
      guard try findFolder.step() else { throw SQLiteError(code: 1, message: "folder row missing") }
      let id = findFolder.int(0)
      findFolder.bind([])
      return id
    }

    /// What the index holds of a folder's files, by name.
    func rows(in folderID: Int64) throws(SQLiteError) -> [[UInt8]: Row] {
      listFolder.bind([folderID])
      var rows: [[UInt8]: Row] = [:]
      while try listFolder.step() {
        rows[listFolder.bytes(0)] = Row(
          id: listFolder.int(1), size: listFolder.int(2), mtime: listFolder.int(3), inode: listFolder.int(4),
          sidecarStamp: listFolder.int(5))
      }
      return rows
    }

    /// Inserts or updates the file's row, with the key of its place; its id.
    func write(_ file: FileFacts, _ metadata: PhotoMetadata, place: Int?) throws(SQLiteError) -> Int64 {
      let values: [Any?] =
        [file.folderID, file.name, file.size, file.mtime, file.inode, place, file.sidecarStamp, file.liveVideo]
        + metadata.columnValues()
      if let id = file.rowID {
        try update.run(values + [id])
        return id
      }
      insert.bind(values)
      guard try insert.step() else { throw SQLiteError(code: 1, message: "no row id returned") }
      let id = insert.int(0)
      while try insert.step() {}
      return id
    }
  }
}
