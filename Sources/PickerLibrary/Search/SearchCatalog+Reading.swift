import Foundation

extension SearchCatalog {
  /// Reads the photos the timeline under `roots` lists, in its order, and
  /// the folders, cameras and places they name. `isCancelled` is asked
  /// every few thousand rows: nil when it said yes.
  static func read(
    from database: SQLiteDatabase, roots: [PathBytes], generation: Int, isCancelled: () -> Bool = { false }
  ) throws(SQLiteError) -> SearchCatalog? {
    var tables = Tables()
    var folderIndex: [Int64: Int32] = [:]
    let folderRows = try database.prepare("SELECT id, path FROM folder")
    while try folderRows.step() {
      folderIndex[folderRows.int(0)] = Int32(tables.folderPaths.count)
      tables.folderPaths.append(folderRows.withBytes(1) { lowered($0) })
    }
    var placeIndex: [Int64: Int32] = [:]
    let placeRows = try database.prepare("SELECT id, words, ifnull(city, country) FROM place")
    while try placeRows.step() {
      placeIndex[placeRows.int(0)] = Int32(tables.placeKeys.count)
      tables.placeKeys.append(placeRows.int(0))
      tables.placeWords.append(placeRows.withBytes(1) { lowered($0) })
      tables.placeNames.append(placeRows.text(2) ?? "")
    }

    // Copies are few: their folders, by the id of the photo shown.
    var copyFolders: [Int64: [Int32]] = [:]
    let copies = try database.prepare("SELECT copy_of, folder FROM photo WHERE copy_of IS NOT NULL")
    while try copies.step() {
      if let folder = folderIndex[copies.int(1)] { copyFolders[copies.int(0), default: []].append(folder) }
    }
    var columns = Columns()
    let count = try database.prepare("SELECT count(*) FROM photo")
    if try count.step() { columns.reserve(Int(count.int(0))) }
    count.bind([])
    var cameraIndex: [[UInt8]: Int32] = [:]
    var cameraKey: [UInt8] = []
    let filter = LibraryFilter(roots: roots)
    let (rootSQL, parameters) = filter.rootCondition()
    // The date index walked backwards: the listing's order without a sort.
    let rows = try database.prepare(
      """
      SELECT p.id, p.taken, p.folder, p.name, p.make, p.model, p.lens, p.place, p.duration IS NOT NULL,
        p.live_video IS NOT NULL, p.rating, p.label, p.copies > 0
      FROM photo p CROSS JOIN folder f ON f.id = p.folder
      WHERE \(rootSQL) AND p.copy_of IS NULL AND p.live_of IS NULL ORDER BY p.taken DESC, p.name DESC
      """)
    rows.bind(parameters)
    while try rows.step() {
      if columns.ids.count % 4096 == 0, isCancelled() { return nil }
      columns.ids.append(rows.int(0))
      let taken = rows.int(1)
      columns.days.append(Int32(clamping: TakenDate(wallClock: taken, offsetMinutes: nil, origin: .fileTime).day))
      columns.folders.append(folderIndex[rows.int(2)] ?? -1)
      let nameStart = columns.names.count
      rows.withBytes(3) { name in
        for byte in name { columns.names.append(byte >= 65 && byte <= 90 ? byte + 32 : byte) }
      }
      columns.nameStarts.append(Int32(columns.names.count))
      cameraKey.removeAll(keepingCapacity: true)
      for column in Int32(4)...6 {
        rows.withBytes(column) { cameraKey.append(contentsOf: $0) }
        cameraKey.append(0)
      }
      if let camera = cameraIndex[cameraKey] {
        columns.cameras.append(camera)
      } else {
        let camera = Int32(tables.cameraFields.count)
        cameraIndex[cameraKey] = camera
        let (make, model, lens) = (rows.bytes(4), rows.bytes(5), rows.bytes(6))
        tables.cameraFields.append(
          CameraFields(
            make: lowered(make), model: lowered(model), lens: lowered(lens),
            makeAndModel: lowered(make + [UInt8(ascii: " ")] + model)))
        columns.cameras.append(camera)
      }
      columns.places.append(rows.isNull(7) ? -1 : placeIndex[rows.int(7)] ?? -1)
      let name = columns.names[nameStart...]
      var kinds = rows.int(8) != 0 ? videoBit : photoBit
      if rows.int(9) != 0 || LivePhotos.isMotionPhoto(name: name) { kinds |= liveBit }
      if PhotoFileTypes.isRaw(name: Array(name.suffix(5))) { kinds |= rawBit }
      if rows.int(12) != 0, let folders = copyFolders[columns.ids.last!] {
        kinds |= copiesBit
        columns.copyFolders[Int32(columns.ids.count - 1)] = folders
      }
      columns.kinds.append(kinds)
      columns.ratings.append(Int8(clamping: rows.int(10)))
      columns.labels.append(rows.isNull(11) ? -1 : Int8(clamping: rows.int(11)))
    }
    return SearchCatalog(generation: generation, columns: columns, tables: tables)
  }
}
