import Foundation
import Testing

@testable import PickerBase
@testable import PickerLibrary

/// The timeline's searches answered from memory (`SearchCatalog`) list the
/// same photos, in the same order, with the same day counts, as the
/// index's SQL; typed a letter at a time (each query narrowing the last
/// one's rows) as well as asked at once.
@Suite struct SearchCatalogTests {
  let root: String

  /// Cameras, folders, places, kinds and dates that the queries below
  /// tell apart, and a copy in a folder of its own.
  static let photos:
    [(path: String, date: String, make: String?, model: String?, position: (latitude: Double, longitude: Double)?)] =
      [
        ("2023/lisbon trip/PXL_20230614_1.jpg", "2023:06:14 10:00:00", "Google", "Pixel 7", (38.7169, -9.1390)),
        ("2023/lisbon trip/PXL_20230614_2.jpg", "2023:06:14 11:00:00", "Google", "Pixel 7", (38.7100, -9.1450)),
        ("2023/lisbon trip/IMG_0003.JPG", "2023:06:14 16:00:00", "Canon", "Canon EOS R5", (38.8029, -9.3817)),
        ("2023/porto/DSC_0004.NEF", "2023:06:13 12:00:00", "NIKON", "Z 6", (41.1496, -8.6110)),
        ("2023/porto/MVIMG_0005.JPG", "2023:06:13 13:00:00", "Google", "Pixel 7a", (41.1496, -8.6110)),
        ("beach/DSCF0006.jpg", "2022:08:01 09:00:00", "FUJIFILM", "X-T4", nil),
        ("beach/DSCF0007.jpg", "2022:08:01 09:30:00", "FUJIFILM", "X-T4", nil),
        ("beach/clip.mp4", "2022:08:01 10:00:00", nil, nil, nil),
        ("Camera/IMG_0009.jpg", "2021:12:24 18:00:00", "Apple", "iPhone 13", (48.8566, 2.3522)),
        ("Camera/IMG_0010.jpg", "2021:12:25 18:00:00", "Apple", "iPhone 13", nil),
      ]

  init() throws {
    root = NSTemporaryDirectory() + "search-catalog-test-\(UUID().uuidString)"
    for photo in Self.photos {
      let path = root + "/" + photo.path
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      let bytes =
        photo.path.hasSuffix(".mp4")
        ? Array("not really a movie".utf8)
        : ExifJPEG.bytes(date: photo.date, make: photo.make, model: photo.model, position: photo.position)
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
    // A copy of a beach photo in a folder only its copy is in.
    try FileManager.default.createDirectory(atPath: root + "/sunset backup", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: root + "/beach/DSCF0006.jpg", toPath: root + "/sunset backup/DSCF0006.jpg")
  }

  func scanned() throws -> (TimelineSource, LibraryIndex) {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    let roots = [PathBytes(root)]
    let namer = PlaceNamer(finder: try PlaceFinderTests.finder())
    try index.withDatabase { database throws(SQLiteError) in
      _ = try LibraryScanner(database: database, roots: roots, placeNamer: namer).scan()
      _ = try CopyFinder(database: database, roots: roots).run(changed: true)
    }
    try index.remember(Culling(rating: 5), of: PathBytes(root + "/2023/lisbon trip/PXL_20230614_1.jpg"))
    try index.remember(Culling(rating: -1), of: PathBytes(root + "/beach/DSCF0007.jpg"))
    try index.remember(Culling(rating: 3, label: .red), of: PathBytes(root + "/Camera/IMG_0009.jpg"))
    return (TimelineSource(index: index, roots: roots), index)
  }

  func catalog(_ index: LibraryIndex) throws -> SearchCatalog {
    try index.withDatabase { database throws(SQLiteError) in
      try SearchCatalog.read(from: database, roots: [PathBytes(root)], generation: 0)
    }!
  }

  static let queries = [
    "lis", "lisbon", "LISBON", "pixel", "pixel 7", "pixel 7a", "pixel 7 2023", "canon", "canon eos", "beach",
    "dsc", "jpg", ".nef", "2023", "jun 2023", "video", "-video", "raw", "live", "photo -raw", "rating>=3",
    "-rejected dscf", "rejected", "unrated camera", "label:red", "x-t4", "porto", "portugal", "paris img",
    "sunset", "zzz", "e", "pix 7", "trip", "2021-12-24..2021-12-25", "google 7",
  ]

  /// Ids, in order, and day counts, as the index's SQL lists them.
  func fromSQL(_ filter: LibraryFilter, _ index: LibraryIndex) throws -> ([Int64], [DayCount]) {
    (try index.photos(filter, offset: 0, limit: 1000).map(\.id), try index.dayCounts(filter))
  }

  func fromCatalog(_ filter: LibraryFilter, _ index: LibraryIndex, _ catalog: SearchCatalog) throws -> (
    [Int64], [DayCount]
  ) {
    let match = try catalog.match(try index.withPlaceWords(filter))
    return (match.rows.map { catalog.ids[Int($0)] }, catalog.days(of: match))
  }

  @Test func everyQueryListsWhatTheIndexLists() throws {
    let (source, index) = try scanned()
    let catalog = try catalog(index)
    #expect(catalog.count == Self.photos.count)
    var nonEmpty = 0
    for query in Self.queries {
      let filter = source.searchFilter(query)
      let (ids, days) = try fromSQL(filter, index)
      let (catalogIDs, catalogDays) = try fromCatalog(filter, index, catalog)
      #expect(catalogIDs == ids, "\(query)")
      #expect(catalogDays == days, "\(query)")
      if !ids.isEmpty { nonEmpty += 1 }
    }
    // The queries tell the photos apart: most find some, not all find all.
    #expect(nonEmpty >= Self.queries.count - 3)
  }

  @Test func typedALetterAtATimeEachPrefixListsWhatTheIndexLists() throws {
    let (source, index) = try scanned()
    let catalog = try catalog(index)
    for query in ["pixel 7 2023", "lisbon pxl", "dscf -video", "canon eos r5", "porto dsc"] {
      for length in 1...query.count {
        let filter = source.searchFilter(String(query.prefix(length)))
        guard !filter.words.isEmpty else { continue }
        let (ids, _) = try fromSQL(filter, index)
        let (catalogIDs, _) = try fromCatalog(filter, index, catalog)
        #expect(catalogIDs == ids, "\(query.prefix(length))")
      }
    }
  }

  @Test func aLongerWordNarrowsAndAnotherDoesNot() {
    var wider = LibraryFilter(roots: [PathBytes("/p")])
    wider.words = ["pix"]
    var narrower = wider
    narrower.words = ["pixel", "7"]
    #expect(SearchCatalog.narrows(narrower, wider))
    narrower.words = ["pax"]
    #expect(!SearchCatalog.narrows(narrower, wider))
    // A place word matched fewer fields: a word that is none may match more.
    wider.placeWords = ["pix"]
    narrower.words = ["pixel"]
    #expect(!SearchCatalog.narrows(narrower, wider))
    narrower.placeWords = ["pixel"]
    #expect(SearchCatalog.narrows(narrower, wider))
    // Another date range is another listing.
    narrower.firstDay = 10
    #expect(!SearchCatalog.narrows(narrower, wider))
  }

  @Test func aVerdictGivenIsSearchedAtOnce() throws {
    let (source, index) = try scanned()
    let catalog = try catalog(index)
    let filter = source.searchFilter("rating>=4")
    #expect(try fromCatalog(filter, index, catalog).0.count == 1)
    let path = PathBytes(root + "/Camera/IMG_0010.jpg")
    try index.remember(Culling(rating: 4), of: path)
    catalog.setCulling(Culling(rating: 4), ofID: try #require(try index.photoID(at: path)))
    let (ids, _) = try fromSQL(filter, index)
    #expect(try fromCatalog(filter, index, catalog).0 == ids)
    #expect(ids.count == 2)
  }

  @Test func theTimelineAnswersFromTheCatalogOnceRead() async throws {
    let (source, _) = try scanned()
    let page = PageRequest(offset: 0, limit: 2)
    _ = try await source.items(in: nil, page: page)
    for _ in 0..<500 where !source.isSearchCatalogReady { try await Task.sleep(for: .milliseconds(10)) }
    #expect(source.isSearchCatalogReady)
    let first = try await source.search("jpg", in: nil, page: page)
    let second = try await source.search("jpg", in: nil, page: PageRequest(offset: 2, limit: 2))
    #expect(first.total == 8)
    #expect(first.days?.map(\.count).reduce(0, +) == 8)
    #expect(first.hasMore && second.hasMore)
    #expect(source.catalogAnswers == 2)
    let names = (first.items + second.items).map { String(decoding: $0.title, as: UTF8.self) }
    #expect(names == ["IMG_0003.JPG", "PXL_20230614_2.jpg", "PXL_20230614_1.jpg", "MVIMG_0005.JPG"])
    source.stop()
  }

  @Test func aPhotoAddedIsFoundAfterTheScanAndInTheCatalogReadAgain() async throws {
    let (source, _) = try scanned()
    let page = PageRequest(offset: 0, limit: 10)
    source.prepareSearch()
    for _ in 0..<500 where !source.isSearchCatalogReady { try await Task.sleep(for: .milliseconds(10)) }
    #expect(try await source.search("harbour", in: nil, page: page).items.isEmpty)
    _ = FileManager.default.createFile(
      atPath: root + "/Camera/harbour.jpg", contents: Data(ExifJPEG.bytes(date: "2024:05:01 08:00:00")))
    source.refresh()
    // The scan's change makes the catalog stale: the index answers, then
    // the catalog read after the scan.
    var found = 0
    for _ in 0..<500 {
      found = try await source.search("harbour", in: nil, page: page).items.count
      if found == 1 && source.isSearchCatalogReady { break }
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(source.isSearchCatalogReady)
    #expect(try await source.search("harbour", in: nil, page: page).items.count == 1)
    source.stop()
  }

  /// A listing with kinds or verdicts reads every row in the index: from
  /// the catalog, typing `video` costs no more than typing `vide`.
  @Test func kindsAndVerdictsWithoutWordsComeFromTheCatalogToo() async throws {
    let (_, index) = try scanned()
    let today = PhotoMetadataReader.latestBelievableDay() - 1
    let videos = TimelineSource(index: index, roots: [PathBytes(root)], kinds: KindFilter(wanted: [.video]))
    let future = TimelineSource(
      index: index, roots: [PathBytes(root)], firstDay: today + 10, kinds: KindFilter(wanted: [.video]))
    for source in [videos, future] {
      source.prepareSearch()
      for _ in 0..<500 where !source.isSearchCatalogReady { try await Task.sleep(for: .milliseconds(10)) }
      #expect(source.isSearchCatalogReady)
    }
    let page = PageRequest(offset: 0, limit: 10)
    let listed = try await videos.items(in: nil, page: page)
    #expect(listed.items.map { String(decoding: $0.title, as: UTF8.self) } == ["clip.mp4"])
    #expect(listed.days?.map(\.videos) == [1])
    #expect(try await videos.search("photo", in: nil, page: page).items.isEmpty)
    #expect(try await videos.search("-rejected", in: nil, page: page).items.count == 1)
    // Nothing to list: the note still says why.
    let none = try await future.items(in: nil, page: page)
    #expect(none.items.isEmpty && none.note?.contains("is after today") == true)
    #expect(videos.catalogAnswers == 3 && future.catalogAnswers == 1)
    videos.stop()
    future.stop()
  }
}
