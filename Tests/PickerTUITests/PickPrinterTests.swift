import Foundation
import Testing

@testable import PickerTUI

/// `--format json` and templates: dates as ISO 8601, strings escaped, and
/// the index's record found by the row a photo was listed from, or by its
/// path when that row is another file now.
@Suite struct PickPrinterTests {
  static func taken(_ year: Int, _ month: Int, _ day: Int, offset: Int?) -> TakenDate {
    TakenDate(
      wallClock: TakenDate.wallClock(CivilDate(year: year, month: month, day: day), hour: 10, minute: 5, second: 9),
      offsetMinutes: offset, origin: .exif)
  }

  @Test func datesAreISOWithTheirOffsetWhenKnown() {
    #expect(PickRecord.iso(taken: Self.taken(2023, 6, 14, offset: 60)) == "2023-06-14T10:05:09+01:00")
    #expect(PickRecord.iso(taken: Self.taken(2023, 12, 1, offset: -330)) == "2023-12-01T10:05:09-05:30")
    #expect(PickRecord.iso(taken: Self.taken(987, 1, 2, offset: nil)) == "0987-01-02T10:05:09")
    var dayOnly = Self.taken(2020, 2, 29, offset: nil)
    dayOnly.isDayOnly = true
    #expect(PickRecord.iso(taken: dayOnly) == "2020-02-29")
  }

  /// One JSON line, parsed.
  static func object(_ line: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  @Test func aLineIsOneObjectWithEveryFieldAndItsStringsEscaped() throws {
    let path = PathBytes("/photos/a \"quoted\"\tname\nsé.jpg")
    var item = PickedItem(
      sourceID: "local", itemID: "1", titleBytes: path.lastComponent, path: path, url: nil)
    var details = PickedDetails()
    details.taken = Self.taken(2023, 6, 14, offset: 60)
    details.culling = Culling(rating: 4, label: .red)
    details.source = "Photos"
    item.details = details
    let lines = PickPrinter.text(of: [item], format: .json, index: nil)
    #expect(lines.count == 1 && !lines[0].contains("\n"))
    let object = try Self.object(lines[0])
    #expect(Set(object.keys) == Set(PickFormat.fieldNames))
    #expect(object["path"] as? String == "/photos/a \"quoted\"\tname\nsé.jpg")
    #expect(object["taken"] as? String == "2023-06-14T10:05:09+01:00")
    #expect(object["rating"] as? Int == 4 && object["label"] as? String == "red")
    #expect(object["camera"] is NSNull && object["source"] as? String == "Photos")
    let template = try PickFormat.parse("{name}|{taken}|{rating}")
    #expect(
      PickPrinter.text(of: [item], format: template, index: nil) == [
        "a \"quoted\"\tname\nsé.jpg|2023-06-14T10:05:09+01:00|4"
      ])
  }

  @Test func pathBytesThatAreNotUTF8PrintAsReplacementsAndCopiesAsAnArray() throws {
    // 0xFF is never UTF-8; the name's é is.
    let path = PathBytes(Array("/photos/bad".utf8) + [0xFF] + Array("é.jpg".utf8))
    var item = PickedItem(sourceID: "local", itemID: "1", titleBytes: path.lastComponent, path: path, url: nil)
    var details = PickedDetails()
    details.copies = [PathBytes("/backup/a.jpg"), PathBytes("/old/\"b\".jpg")]
    details.videoSeconds = 12
    details.listedSize = PixelSize(width: 4032, height: 3024)
    item.details = details
    let line = try #require(PickPrinter.text(of: [item], format: .json, index: nil).first)
    let object = try Self.object(line)
    #expect(object["path"] as? String == "/photos/bad\u{FFFD}é.jpg")
    #expect(object["name"] as? String == "bad\u{FFFD}é.jpg")
    #expect(object["copies"] as? [String] == ["/backup/a.jpg", "/old/\"b\".jpg"])
    #expect(object["duration"] as? Int == 12 && object["width"] as? Int == 4032 && object["height"] as? Int == 3024)
    #expect(line.contains("\"rating\":0,") && line.contains("\"live_video\":null"))
    let template = try PickFormat.parse("{copies} {width}x{height} {duration}")
    #expect(PickPrinter.text(of: [item], format: template, index: nil) == ["2 4032x3024 12"])
  }

  /// Thousands of picks are written a share on each core: the lines come
  /// back whole, once each, in the order picked.
  @Test func manyPicksComeOutInTheOrderPicked() throws {
    let picks = (0..<2_501).map { Self.pick("p\($0).jpg", indexID: nil) }
    let lines = PickPrinter.text(of: picks, format: .json, index: nil)
    #expect(lines.count == picks.count)
    for (offset, line) in lines.enumerated() where offset % 250 == 0 || offset == lines.count - 1 {
      #expect(try Self.object(line)["name"] as? String == "p\(offset).jpg")
    }
    let names = PickPrinter.text(of: picks, format: try PickFormat.parse("{name}"), index: nil)
    #expect(names == picks.indices.map { "p\($0).jpg" })
  }

  @Test func integersAreWrittenDigitByDigit() {
    for value in [0, 7, -7, 10, 4032, -1_000_000, Int.max, Int.min] {
      var out: [UInt8] = []
      PickValue.writeInteger(value, into: &out)
      #expect(String(decoding: out, as: UTF8.self) == String(value))
    }
  }

  /// An index of two photos in one folder, by different cameras.
  static func index(in folder: String) throws -> (LibraryIndex, [Int64]) {
    let index = LibraryIndex(path: folder + "/library.sqlite")
    let ids = try index.withDatabase { database throws(SQLiteError) -> [Int64] in
      try database.prepare("INSERT INTO folder(path) VALUES (?)").run([Array("/photos".utf8)])
      let folderID = database.lastInsertedRowID
      var ids: [Int64] = []
      for (name, model) in [("a.jpg", "Pixel 7"), ("b.jpg", "X-T4")] {
        try database.prepare(
          "INSERT INTO photo(folder, name, size, mtime, inode, taken, origin, model) VALUES (?, ?, 1000, 0, 0, 0, 1, ?)"
        ).run([folderID, Array(name.utf8), model])
        ids.append(database.lastInsertedRowID)
      }
      return ids
    }
    return (index, ids)
  }

  static func pick(_ name: String, indexID: Int64?) -> PickedItem {
    var item = PickedItem(
      sourceID: "photos", itemID: name, titleBytes: Array(name.utf8), path: PathBytes("/photos/" + name), url: nil)
    var details = PickedDetails()
    details.indexID = indexID
    item.details = details
    return item
  }

  /// A search's page and a sweep read photos by id: in the order asked,
  /// an id asked twice twice, an id gone left out; records by id too.
  @Test func photosAndRecordsByIDComeAsAsked() throws {
    let folder = NSTemporaryDirectory() + "pick-printer-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (index, ids) = try Self.index(in: folder)
    let photos = try index.photos(ids: [ids[1], 999, ids[0], ids[1]])
    #expect(
      photos.map { String(decoding: $0.path.bytes, as: UTF8.self) } == [
        "/photos/b.jpg", "/photos/a.jpg", "/photos/b.jpg",
      ])
    // More ids than one statement takes.
    let many = try index.photos(ids: Array(repeating: ids[0], count: 1_201) + [ids[1]])
    #expect(many.count == 1_202 && many.last?.name == Array("b.jpg".utf8))
    let records = try index.records(ids: [ids[1], 999, ids[0]])
    #expect(
      records.count == 2 && records[ids[1]]?.metadata.model == "X-T4"
        && records[ids[0]]?.path == PathBytes("/photos/a.jpg"))
  }

  /// An index of 3,000 photos, p0.jpg to p2999.jpg, in a file in
  /// `folder` or in memory; their row ids.
  static func bigIndex(in folder: String, onFile: Bool) throws -> (LibraryIndex, [Int64]) {
    let index = LibraryIndex(path: onFile ? folder + "/library.sqlite" : nil)
    let ids = try index.withDatabase { database throws(SQLiteError) -> [Int64] in
      try database.transaction { () throws(SQLiteError) -> [Int64] in
        try database.prepare("INSERT INTO folder(path) VALUES (?)").run([Array("/photos".utf8)])
        let folderID = database.lastInsertedRowID
        let insert = try database.prepare(
          "INSERT INTO photo(folder, name, size, mtime, inode, taken, origin, model) VALUES (?, ?, 1000, 0, 0, 0, 1, ?)"
        )
        var ids: [Int64] = []
        for number in 0..<3_000 {
          try insert.run([folderID, Array("p\(number).jpg".utf8), "Model \(number)"])
          ids.append(database.lastInsertedRowID)
        }
        return ids
      }
    }
    return (index, ids)
  }

  /// Thousands are read in two halves at once, one on each connection
  /// (all on its one connection for an index in memory): the same photos
  /// in the same order, an id gone in the first half leaving no gap.
  @Test(arguments: [true, false]) func bigReadsByIDComeWholeAndInOrder(onFile: Bool) throws {
    let folder = NSTemporaryDirectory() + "pick-printer-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (index, ids) = try Self.bigIndex(in: folder, onFile: onFile)
    #expect((index.path != nil) == onFile)
    // Newest first, as a listing asks; ten ids gone at the start, one asked twice.
    let asked = (0..<10).map { Int64(1_000_000 + $0) } + ids.reversed() + [ids[5]]
    let photos = try index.photos(ids: asked)
    let number = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    let expected = ids.reversed().map { "p\(number[$0]!).jpg" } + ["p5.jpg"]
    #expect(photos.count == 3_001)
    #expect(photos.map { String(decoding: $0.name, as: UTF8.self) } == expected)
    let items = try index.photos(ids: asked) { $0.id }
    #expect(items == Array(ids.reversed()) + [ids[5]])
    let records = try index.records(ids: asked)
    #expect(records.count == 3_000)
    #expect(ids.allSatisfy { records[$0]?.metadata.model == "Model \(number[$0]!)" })
    #expect(records[ids[2_999]]?.path == PathBytes("/photos/p2999.jpg"))
  }

  /// A search replaced while its rows are read stops: the read throws
  /// (the half on the task's thread is interrupted) and gives nothing.
  @Test(arguments: [true, false]) func aCancelledBigReadStops(onFile: Bool) async throws {
    let folder = NSTemporaryDirectory() + "pick-printer-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (index, ids) = try Self.bigIndex(in: folder, onFile: onFile)
    let outcome = await Task { () -> Result<Int, SQLiteError> in
      withUnsafeCurrentTask { $0?.cancel() }
      do throws(SQLiteError) {
        return .success(try index.photos(ids: ids).count + (try index.records(ids: ids)).count)
      } catch {
        return .failure(error)
      }
    }.value
    guard case .failure(let error) = outcome else {
      Issue.record("a cancelled read gave \(outcome)")
      return
    }
    #expect(SQLiteDatabase.isInterruption(error))
    // The index answers the next read whole.
    #expect(try index.photos(ids: ids).count == 3_000)
  }

  @Test func theIndexRecordIsFoundByTheRowListedElseByThePath() throws {
    let folder = NSTemporaryDirectory() + "pick-printer-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (index, ids) = try Self.index(in: folder)
    let picks = [
      Self.pick("a.jpg", indexID: ids[0]),
      // Listed as row 1 once, which is now another file: found by its path.
      Self.pick("b.jpg", indexID: ids[0]),
      Self.pick("b.jpg", indexID: nil),
      Self.pick("b.jpg", indexID: 999),
    ]
    let models = try PickPrinter.text(of: picks, format: .json, index: index).map {
      try Self.object($0)["model"] as? String
    }
    #expect(models == ["Pixel 7", "X-T4", "X-T4", "X-T4"])
  }
}
