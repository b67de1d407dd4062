import CImaging
import Foundation
import PickerTestSupport
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The one metadata record's table (`PhotoMetadata.fields`): the index's
/// columns, its insert and its schema's version are made from it, and so
/// are the facts panel's rows; an index made by another schema is dropped
/// whole, whatever tables it had.
@Suite struct MetadataFieldsTests {
  func folder() -> String { TestImages.temporaryFolder().path }

  @Test func everyColumnOfTheTableIsInTheIndexAndWritten() throws {
    let root = folder()
    let file = URL(fileURLWithPath: root + "/IMG_20240701_183000.jpg")
    TestImages.write(
      try #require(TestImageEncoder.encode(TestImages.quadrants(64, 48), as: .jpeg(quality: 90))), to: file)
    try FactsReaderTests.tag(file)
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    _ = try index.scan([PathBytes(root)])
    let columns = try index.withDatabase { database throws(SQLiteError) in
      let info = try database.prepare("PRAGMA table_info(photo)")
      var names: [String] = []
      while try info.step() { names.append(info.text(1) ?? "") }
      return names
    }
    let recorded = PhotoMetadata.columns.compactMap(\.column)
    #expect(recorded.contains("lens") && recorded.contains("duration") && recorded.contains("taken"))
    #expect(Set(recorded).isSubset(of: Set(columns)), "\(columns)")
    // What the table writes is what a query reads back.
    let row = try index.withDatabase { database throws(SQLiteError) in
      let select = try database.prepare("SELECT make, model, lens, width, orientation, duration FROM photo")
      _ = try select.step()
      return [select.text(0), select.text(1), select.text(2), String(select.int(3)), String(select.int(4))]
        + [select.text(5)]
    }
    #expect(row == ["FUJIFILM", "X-T4", "XF35mmF1.4 R", "64", "6", nil])
  }

  @Test func theSchemasVersionIsItsFingerprint() {
    // Made from the tables' text, so a field added changes it.
    #expect(LibraryIndex.schemaVersion.count >= 8)
    #expect(LibraryIndex.tables.contains("content_id TEXT") && LibraryIndex.tables.contains("lens TEXT"))
  }

  @Test func anIndexOfAnotherVersionIsDroppedWholeAndMadeAnew() throws {
    let root = folder()
    let path = root + "/library.sqlite"
    do {
      let old = try SQLiteDatabase(path: path)
      try old.execute(
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
        INSERT INTO meta VALUES ('schema', '8');
        CREATE TABLE photo(id INTEGER PRIMARY KEY, folder INTEGER, name BLOB, taken INTEGER);
        CREATE TABLE gone_in_a_later_version(x);
        """)
    }
    let index = LibraryIndex(path: path)
    let tables = try index.withDatabase { database throws(SQLiteError) in
      let names = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      var found: [String] = []
      while try names.step() { found.append(names.text(0) ?? "") }
      let version = try database.prepare("SELECT value FROM meta WHERE key = 'schema'")
      _ = try version.step()
      return (found, version.text(0))
    }
    #expect(!tables.0.contains("gone_in_a_later_version"), "\(tables.0)")
    #expect(tables.0.contains("photo") && tables.0.contains("day_count"))
    #expect(tables.1 == LibraryIndex.schemaVersion)
    #expect(index.notice == nil)
  }

  @Test func theFactsRowsComeInTheTablesOrderForWhatIsKnown() {
    var facts = PhotoFacts(name: "clip.mp4")
    facts.fileSize = 2 << 20
    facts.format = "video"
    facts.metadata.pixelSize = PixelSize(width: 1920, height: 1080)
    facts.metadata.videoSeconds = 65
    facts.metadata.videoCodec = "avc1"
    facts.metadata.frameRate = 29.97
    facts.dateTaken = "2024-03-01 08:30:00 (video header)"
    facts.metadata.make = "Google"
    facts.metadata.model = "Pixel 8"
    facts.metadata.latitude = 35.6895
    facts.metadata.longitude = 139.69171
    facts.place = "Tokyo, Japan"
    facts.metadata.orientation = 6
    #expect(
      facts.rows.map(\.label) == [
        "Name", "Size", "File", "Format", "Length", "Codec", "Frame rate", "Taken", "Camera", "Place", "GPS",
        "Orientation",
      ])
    let values = Dictionary(uniqueKeysWithValues: facts.rows.map { ($0.label, $0.value) })
    #expect(values["Codec"] == "H.264 (avc1)" && values["Frame rate"] == "29.97 fps" && values["Length"] == "1:05")
    #expect(values["Camera"] == "Google Pixel 8" && values["GPS"] == "35.68950, 139.69171")
    #expect(values["Orientation"] == "rotated 90° CW")
    // An orientation out of EXIF's range says nothing.
    facts.metadata.orientation = 12
    #expect(!facts.rows.map(\.label).contains("Orientation"))
  }

  @Test func textFromCIsPrintableASCII() {
    var header = pk_photo_header()
    withUnsafeMutableBytes(of: &header.make) { bytes in
      for (i, byte) in [UInt8(ascii: "A"), 0x1B, UInt8(ascii: "]"), 0xC3, UInt8(ascii: "Z")].enumerated() {
        bytes[i] = byte
      }
    }
    var metadata = PhotoMetadata()
    metadata.take(header)
    #expect(metadata.make == "A?]?Z")
  }
}
