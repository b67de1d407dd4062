import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Places in the library index: photos written with GPS at known places
/// are scanned; their places name the days, are searched by city, region
/// and country (accents folded), restrict the timeline like `--place`, and
/// follow the config's corrections without a file being read again.
@Suite struct IndexedPlacesTests {
  let root: String

  /// Where the photos are: two in Lisbon (1, 2) and one in Sintra (3) on
  /// 14 June 2023, Porto (4) the day before, Tokyo (5), São Paulo (6), one
  /// at sea (7), one at 0,0 (8) and one without a position (9). Their names
  /// say no place: a word matches names too.
  static let photos: [(name: String, date: String, position: (latitude: Double, longitude: Double)?)] = [
    ("IMG_0001.jpg", "2023:06:14 10:00:00", (38.7169, -9.1390)),
    ("IMG_0002.jpg", "2023:06:14 11:00:00", (38.7100, -9.1450)),
    ("IMG_0003.jpg", "2023:06:14 16:00:00", (38.8029, -9.3817)),
    ("IMG_0004.jpg", "2023:06:13 12:00:00", (41.1496, -8.6110)),
    ("IMG_0005.jpg", "2024:04:02 09:00:00", (35.6895, 139.6917)),
    ("IMG_0006.jpg", "2022:01:05 09:00:00", (-23.5475, -46.6361)),
    ("IMG_0007.jpg", "2023:06:12 09:00:00", (35.0, -40.0)),
    ("IMG_0008.jpg", "2023:06:12 10:00:00", (0, 0)),
    ("IMG_0009.jpg", "2023:06:12 11:00:00", nil),
  ]

  init() throws {
    root = NSTemporaryDirectory() + "places-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    for photo in Self.photos {
      _ = FileManager.default.createFile(
        atPath: root + "/" + photo.name,
        contents: Data(ExifJPEG.bytes(date: photo.date, model: "X-T4", position: photo.position)))
    }
  }

  func index() -> LibraryIndex { LibraryIndex(path: root + "/.cache/library.sqlite") }

  static func namer(_ corrections: PlaceCorrections = PlaceCorrections()) throws -> PlaceNamer {
    PlaceNamer(finder: try PlaceFinderTests.finder(), corrections: corrections)
  }

  @discardableResult
  func scan(_ index: LibraryIndex, _ namer: PlaceNamer?) throws -> ScanSummary {
    try index.withDatabase { database throws(SQLiteError) in
      try LibraryScanner(database: database, roots: [PathBytes(root)], placeNamer: namer).scan()
    }
  }

  func names(_ index: LibraryIndex, words: [String] = [], places: [String] = []) throws -> Set<String> {
    var filter = LibraryFilter(roots: [PathBytes(root)])
    filter.words = words
    filter.places = places
    return Set(try index.photos(filter, offset: 0, limit: 100).map { String(decoding: $0.name, as: UTF8.self) })
  }

  @Test func aDayHeaderNamesItsPlacesMostPhotosFirst() throws {
    let index = index()
    try scan(index, try Self.namer())
    let days = try index.dayCounts(LibraryFilter(roots: [PathBytes(root)]))
    let june14 = try #require(days.first { CivilDate(dayNumber: $0.day).dayMonthYear == "14 Jun 2023" })
    #expect(june14.count == 3)
    #expect(june14.places == ["Lisbon", "Sintra"])
    let june12 = try #require(days.first { CivilDate(dayNumber: $0.day).dayMonthYear == "12 Jun 2023" })
    // At sea, 0,0 and no position: three photos, no place.
    #expect(june12.count == 3 && june12.places.isEmpty)
  }

  @Test func wordsFindCitiesRegionsAndCountriesWithAccentsFolded() throws {
    let index = index()
    try scan(index, try Self.namer())
    // Sintra is in the region of Lisbon.
    #expect(try names(index, words: ["lisbon"]) == ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg"])
    #expect(try names(index, words: ["Portugal"]) == ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg", "IMG_0004.jpg"])
    #expect(try names(index, words: ["sao", "paulo"]) == ["IMG_0006.jpg"])
    #expect(try names(index, words: ["são", "paulo"]) == ["IMG_0006.jpg"])
    #expect(try names(index, words: ["tokyo", "x-t4"]) == ["IMG_0005.jpg"])
    #expect(try names(index, words: ["japan"]) == ["IMG_0005.jpg"])
    // The searched days carry their places too.
    var filter = LibraryFilter(roots: [PathBytes(root)])
    filter.words = ["portugal"]
    #expect(try index.dayCounts(filter).map(\.places) == [["Lisbon", "Sintra"], ["Porto"]])
  }

  @Test func aPlaceWordFindsFoldersToo() throws {
    // A folder named for the trip, its photo without a position; a file
    // named for a place elsewhere.
    try FileManager.default.createDirectory(atPath: root + "/Lisbon trip", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: root + "/Lisbon trip/IMG_0100.jpg", contents: Data(ExifJPEG.bytes(date: "2023:06:14 12:00:00")))
    _ = FileManager.default.createFile(
      atPath: root + "/lisbon-sunset.jpg", contents: Data(ExifJPEG.bytes(date: "2023:06:14 12:30:00")))
    let index = index()
    try scan(index, try Self.namer())
    #expect(try index.withPlaceWords(filter(words: ["lisbon"])).placeWords == ["lisbon"])
    // By place and by folder; a name is not read for a place word (that
    // would read every row): the sunset is found by a word of its name
    // that names no place.
    #expect(
      try names(index, words: ["lisbon"]) == ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg", "IMG_0100.jpg"])
    #expect(try names(index, words: ["sunset"]) == ["lisbon-sunset.jpg"])
    // The day counts agree with the listing.
    #expect(try index.dayCounts(filter(words: ["lisbon"])).map(\.count) == [4])
  }

  @Test func aWordThatNamesACameraIsSearchedEverywhere() throws {
    // A camera whose model is a town's name: "sintra" is no place word.
    _ = FileManager.default.createFile(
      atPath: root + "/IMG_0200.jpg", contents: Data(ExifJPEG.bytes(date: "2022:02:02 12:00:00", model: "Sintra 1")))
    let index = index()
    try scan(index, try Self.namer())
    #expect(try index.withPlaceWords(filter(words: ["sintra"])).placeWords.isEmpty)
    #expect(try names(index, words: ["sintra"]) == ["IMG_0003.jpg", "IMG_0200.jpg"])
    #expect(try index.dayCounts(filter(words: ["sintra"])).map(\.count) == [1, 1])
  }

  @Test func aPositionWithoutDegreesIsNoPosition() throws {
    // Degrees of 0/0 (a camera without a fix): no position at all; minutes
    // of 0/0 count as none.
    var entries = ExifJPEG.gpsEntries(latitude: 38.7169, longitude: -9.1390)
    entries[1].rationals![0] = (38, 0)
    let tiff = ExifJPEG.tiffBytes(ifd0: [], exif: [.init(tag: 0x9003, text: "2023:06:14 10:00:00")], gps: entries)
    let app1 = Array("Exif\0\0".utf8) + tiff
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + ExifJPEG.be16(app1.count + 2) + app1 + [0xFF, 0xD9]
    _ = FileManager.default.createFile(atPath: root + "/IMG_0300.jpg", contents: Data(jpeg))
    entries = ExifJPEG.gpsEntries(latitude: 38.7169, longitude: -9.1390)
    entries[1].rationals![1] = (44, 0)
    let minutes = ExifJPEG.tiffBytes(ifd0: [], exif: [.init(tag: 0x9003, text: "2023:06:14 10:00:00")], gps: entries)
    let app1b = Array("Exif\0\0".utf8) + minutes
    let jpegb: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + ExifJPEG.be16(app1b.count + 2) + app1b + [0xFF, 0xD9]
    _ = FileManager.default.createFile(atPath: root + "/IMG_0301.jpg", contents: Data(jpegb))
    let read = { (name: String) in
      PhotoMetadataReader.read(
        path: PathBytes(root + "/" + name), name: Array(name.utf8), modified: timespec(),
        latestDay: PhotoMetadataReader.latestBelievableDay())
    }
    #expect(read("IMG_0300.jpg").latitude == nil)
    // 38° 0/0' 0.84": the seconds still count.
    #expect(read("IMG_0301.jpg").latitude.map { abs($0 - (38 + 0.84 / 3600)) < 1e-4 } == true)
  }

  func filter(words: [String]) -> LibraryFilter {
    var filter = LibraryFilter(roots: [PathBytes(root)])
    filter.words = words
    return filter
  }

  @Test func aSearchCombinesAPlaceWithADate() async throws {
    let index = index()
    try scan(index, try Self.namer())
    let source = TimelineSource(index: index, roots: [PathBytes(root)])
    let page = try await source.search("portugal 2023-06-14", in: nil, page: PageRequest(offset: 0, limit: 50))
    #expect(
      Set(page.items.map { String(decoding: $0.title, as: UTF8.self) }) == [
        "IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg",
      ])
  }

  @Test func thePlaceOptionRestrictsTheTimelineAndItsDays() throws {
    let index = index()
    try scan(index, try Self.namer())
    #expect(try names(index, places: ["Japan"]) == ["IMG_0005.jpg"])
    #expect(try names(index, places: ["porto", "tokyo"]) == ["IMG_0004.jpg", "IMG_0005.jpg"])
    var filter = LibraryFilter(roots: [PathBytes(root)])
    filter.places = ["lisbon"]
    #expect(try index.dayCounts(filter).map(\.count) == [3])
  }

  /// A --place that names no place of the index says so, and what to do;
  /// the path line shows the filters in force.
  @Test func aPlaceThatMatchesNothingSaysSoAndTheFiltersShow() async throws {
    let index = index()
    try scan(index, try Self.namer())
    #expect(try index.knowsPlace("lisbon") && !(try index.knowsPlace("atlantis")))
    let source = TimelineSource(
      index: index, roots: [PathBytes(root)], firstDay: CivilDate(year: 2023, month: 1, day: 1).dayNumber,
      places: ["atlantis"])
    #expect(source.rootLabel == root + " · --since 1 Jan 2023 · --place atlantis")
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 50))
    #expect(page.items.isEmpty)
    #expect(page.note?.hasPrefix("No place called “atlantis”") == true)
  }

  @Test func withoutATableNothingIsNamedAndATableLaterNamesAll() throws {
    let index = index()
    try scan(index, nil)
    #expect(try names(index, words: ["lisbon"]).isEmpty)
    #expect(try index.dayCounts(LibraryFilter(roots: [PathBytes(root)])).allSatisfy { $0.places.isEmpty })
    let summary = try scan(index, try Self.namer())
    #expect(summary.read == 0)
    #expect(try names(index, words: ["sintra"]) == ["IMG_0003.jpg"])
  }

  @Test func correctionsRenameWithoutReadingAFileAgain() throws {
    let index = index()
    try scan(index, try Self.namer())
    let corrections = PlaceCorrections(
      areas: [.init(name: "home", latitude: 38.7169, longitude: -9.1390, radius: 0.5)],
      renames: [.init(from: "Sintra", to: "Cascais"), .init(from: "Porto, Porto", to: "Oporto")])
    let summary = try scan(index, try Self.namer(corrections))
    #expect(summary.read == 0)
    #expect(try names(index, words: ["home"]) == ["IMG_0001.jpg"])
    #expect(try names(index, words: ["lisbon"]) == ["IMG_0002.jpg", "IMG_0003.jpg"])
    // Cascais is a town of the table near Sintra: its names are taken.
    #expect(try names(index, words: ["cascais"]) == ["IMG_0003.jpg"])
    #expect(try names(index, words: ["oporto"]) == ["IMG_0004.jpg"])
    // The area is in the country its centre is in.
    #expect(try names(index, words: ["portugal"]).contains("IMG_0001.jpg"))
    let days = try index.dayCounts(LibraryFilter(roots: [PathBytes(root)]))
    #expect(days.first { $0.count == 3 && !$0.places.isEmpty }?.places == ["Cascais", "Lisbon", "home"])
    // Taken back: the table's names again.
    try scan(index, try Self.namer())
    #expect(try names(index, words: ["sintra"]) == ["IMG_0003.jpg"])
    #expect(try names(index, words: ["home"]).isEmpty)
  }
}
