import ArgumentParser
import Foundation
import PickerTUI

/// `picker-tui bench index LIBRARY`: the library index's figures, side by
/// side in one run: a first index into an empty file (the files in the page
/// cache after a warm-up walk; the scan, then finding copies, as `index`
/// does), a rescan with nothing changed, the size per photo, and
/// `exiftool -fast2 -r -DateTimeOriginal` over the same tree.
/// `--synthetic N` adds N made-up rows (no files) to time listing a huge
/// timeline: the first page with its day counts, a jump, the last page.
struct IndexBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "index", abstract: "Index a library (first scan, rescan, size; against exiftool).")

  @Argument(help: "The library folder (scripts/make-library.py makes one).")
  var library: String

  @Option(help: "Runs of each measurement (medians are reported).")
  var runs = 3

  @Option(help: "Time exiftool -fast2 -r -DateTimeOriginal on the same tree: runs (0: not).")
  var exiftoolRuns = 1

  @Option(help: "Instead of scanning: an index of N synthetic rows, then time the timeline's queries on it.")
  var synthetic: Int?

  func run() throws {
    let scratch = NSTemporaryDirectory() + "picker-bench-index-\(getpid())"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let root = CanonicalRoot.of(PathBytes(library))
    if let synthetic { return try timeQueries(rows: synthetic, root: root, scratch: scratch) }
    // A walk that reads every header once: the files are in the page cache.
    let warmup = LibraryIndex(path: nil)
    let photos = try warmup.scan([root]).photos
    var firsts: [Double] = []
    var rescans: [Double] = []
    var bytes: Int64 = 0
    var copies = 0
    for run in 0..<max(1, runs) {
      let path = scratch + "/library-\(run).sqlite"
      let index = LibraryIndex(path: path)
      firsts.append(
        try seconds {
          _ = try index.scan([root])
          copies = try index.findCopies([root])
        })
      rescans.append(
        try seconds {
          let summary = try index.scan([root])
          _ = try index.findCopies([root], changed: summary.changedAnything)
        })
      try index.withDatabase { database throws(SQLiteError) in try database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
      bytes = index.bytesOnDisk
    }
    let first = median(firsts)
    print("photos:              \(photos) (\(copies) of them copies of others)")
    print(
      "first index:         median \(format(first * 1000)) ms = \(Int(Double(photos) / first)) photos/s (\(runs) runs)")
    print("no-change rescan:    median \(format(median(rescans) * 1000)) ms")
    print("index size:          \(bytes) bytes = \(bytes / Int64(max(1, photos))) bytes per photo")
    if exiftoolRuns > 0 {
      var times: [Double] = []
      for _ in 0..<exiftoolRuns {
        times.append(
          try seconds {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["exiftool", "-fast2", "-r", "-q", "-q", "-DateTimeOriginal", library]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
          })
      }
      let exif = median(times)
      print(
        "exiftool -fast2 -r:  median \(format(exif * 1000)) ms = \(Int(Double(photos) / exif)) files/s; "
          + "the index is \(format(exif / first))x faster")
    }
  }

  /// An index of `rows` made-up photos, one every few minutes back from
  /// today, then the timeline's queries on it.
  private func timeQueries(rows: Int, root: PathBytes, scratch: String) throws {
    let path = scratch + "/synthetic.sqlite"
    let index = LibraryIndex(path: path)
    let built = try seconds { try Self.addSyntheticRows(rows, under: root, to: index) }
    try index.withDatabase { database throws(SQLiteError) in try database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    let source = TimelineSource(index: LibraryIndex(path: path), roots: [root])
    var firstPage: [Double] = []
    var jump: [Double] = []
    var last: [Double] = []
    for _ in 0..<max(1, runs) {
      firstPage.append(
        try seconds { _ = try waitFor { try await source.items(in: nil, page: PageRequest(offset: 0, limit: 96)) } })
      jump.append(
        try seconds {
          _ = try waitFor { try await source.items(in: nil, page: PageRequest(offset: rows / 2, limit: 96)) }
        }
      )
      last.append(
        try seconds {
          _ = try waitFor { try await source.items(in: nil, page: PageRequest(offset: rows - 96, limit: 96)) }
        })
    }
    // Search by a place (`addSyntheticPlaces`); the next frame waits for
    // the results' first page and their day counts.
    var placeSearch: [Double] = []
    var rareSearch: [Double] = []
    if let lisbon = try Self.addSyntheticPlaces(to: index) {
      for _ in 0..<max(1, runs) {
        placeSearch.append(
          try seconds {
            _ = try waitFor { try await source.search("lisbon", in: nil, page: PageRequest(offset: 0, limit: 96)) }
          })
        rareSearch.append(
          try seconds {
            _ = try waitFor { try await source.search("zzyzx", in: nil, page: PageRequest(offset: 0, limit: 96)) }
          })
      }
      _ = lisbon
    }
    print("synthetic rows:      \(rows) (built in \(format(built * 1000)) ms)")
    if !placeSearch.isEmpty {
      print("search \"lisbon\":     median \(format(median(placeSearch) * 1000)) ms (first page + its days)")
      print("search, no match:    median \(format(median(rareSearch) * 1000)) ms")
    }
    print("first page + days:   median \(format(median(firstPage) * 1000)) ms")
    print("page at the middle:  median \(format(median(jump) * 1000)) ms")
    print("last page:           median \(format(median(last) * 1000)) ms")
    print("index size:          \(index.bytesOnDisk / Int64(max(1, rows))) bytes per photo")
    print("peak RSS:            \(FirstPaintBench.peakResidentKilobytes() / 1024) MB")
  }

  /// Gives a third of the synthetic days (blocks of 288 rows, about a day)
  /// one of 200 places each (Lisbon's among them, about 1 row in 600), as
  /// a day is spent in one place, and names those places; nil without a
  /// places table.
  static func addSyntheticPlaces(to index: LibraryIndex) throws -> Int? {
    guard let namer = PlaceData.namer, let lisbon = namer.finder.key(latitude: 38.7169, longitude: -9.1390) else {
      return nil
    }
    let count = namer.finder.table.count
    var keys = (0..<199).map { $0 * (count / 199) }
    keys.append(lisbon)
    try index.withDatabase { database throws(SQLiteError) in
      let places = try IndexedPlaces(database: database, namer: namer)
      try database.transaction { () throws(SQLiteError) in
        for key in keys { try places.remember(key) }
        let list = keys.map(String.init).joined(separator: ", ")
        try database.execute(
          """
          CREATE TEMP TABLE synthetic_place(n INTEGER PRIMARY KEY, key INTEGER);
          INSERT INTO synthetic_place SELECT row_number() OVER () - 1, value FROM json_each('[\(list)]');
          UPDATE photo SET place = (SELECT key FROM synthetic_place WHERE n = photo.id / 288 / 3 % 200)
            WHERE photo.id / 288 % 3 = 0;
          DROP TABLE synthetic_place;
          """)
      }
      try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    return lisbon
  }

  /// `rows` made-up photos in `root` (no files), one every ~5 minutes
  /// back from now: ten years of a busy camera for a million.
  static func addSyntheticRows(_ rows: Int, under root: PathBytes, to index: LibraryIndex) throws {
    try index.withDatabase { database throws(SQLiteError) in
      let folder = try database.prepare("INSERT INTO folder(path) VALUES (?)")
      try folder.run([root.bytes])
      let folderID = database.lastInsertedRowID
      let now = Int64(Date().timeIntervalSince1970 * 1000)
      try database.execute(
        """
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows - 1))
        INSERT INTO photo(folder, name, size, mtime, inode, taken, origin)
        SELECT \(folderID), CAST('IMG_' || i || '.jpg' AS BLOB), 3000000, 0, i, \(now) - i * 315360, 1 FROM n;
        PRAGMA wal_checkpoint(TRUNCATE);
        """)
    }
  }

  private func seconds(_ body: () throws -> Void) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  private func median(_ values: [Double]) -> Double { picker_bench.median(values) ?? 0 }
  private func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
