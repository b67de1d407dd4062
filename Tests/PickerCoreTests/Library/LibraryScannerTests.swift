import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The library index against real files in a scratch folder: dates by
/// origin, skipped folders, rescans that read nothing, moves, deletions,
/// a damaged index file, and the timeline source's listings and searches.
@Suite struct LibraryScannerTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "library-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root + "/2023/06", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/Phone", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/.thumbnails", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/Chats", withIntermediateDirectories: true)
    write(
      "2023/06/DSC_0001.JPG",
      ExifJPEG.bytes(date: "2023:06:14 10:15:00", subSeconds: "5", make: "FUJIFILM", model: "X-T4"))
    write(
      "2023/06/DSC_0002.JPG",
      ExifJPEG.bytes(date: "2023:06:14 10:15:00", subSeconds: "2", make: "FUJIFILM", model: "X-T4"))
    write("Phone/IMG_20220101_120000.jpg", ExifJPEG.bytes(make: "Google", model: "Pixel 7"))
    write("Phone/bad.jpg", ExifJPEG.bytes(date: "0000:00:00 00:00:00"))
    write("Phone/plain.jpg", ExifJPEG.bytes())
    write(".thumbnails/hidden.jpg", ExifJPEG.bytes(date: "2024:01:01 00:00:00"))
    write("Chats/.nomedia", [])
    write("Chats/sticker.jpg", ExifJPEG.bytes(date: "2024:01:01 00:00:00"))
    // The file times: 2020-03-01 12:00 UTC, so the mtime photos are older.
    for name in ["Phone/bad.jpg", "Phone/plain.jpg"] { setTime(name, 1_583_064_000) }
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  func setTime(_ name: String, _ seconds: Int) {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    _ = utimensat(AT_FDCWD, root + "/" + name, &times, 0)
  }

  func index() -> LibraryIndex { LibraryIndex(path: root + "/.cache/library.sqlite") }

  func scan(_ index: LibraryIndex) throws -> ScanSummary {
    try index.withDatabase { database throws(SQLiteError) in
      try LibraryScanner(database: database, roots: [PathBytes(root)]).scan()
    }
  }

  func names(_ index: LibraryIndex, _ filter: LibraryFilter? = nil) throws -> [String] {
    try index.photos(filter ?? LibraryFilter(roots: [PathBytes(root)]), offset: 0, limit: 100).map {
      String(decoding: $0.name, as: UTF8.self)
    }
  }

  @Test func datesComeFromExifThenTheNameThenTheFileTime() throws {
    let index = index()
    let summary = try scan(index)
    #expect(summary.photos == 5)
    #expect(summary.read == 5)
    // Newest first; the same second is ordered by sub-seconds.
    let listed = try names(index)
    #expect(Array(listed.prefix(3)) == ["DSC_0001.JPG", "DSC_0002.JPG", "IMG_20220101_120000.jpg"])
    #expect(Array(listed.suffix(2)) == ["plain.jpg", "bad.jpg"])
    let photos = try index.photos(LibraryFilter(roots: [PathBytes(root)]), offset: 0, limit: 10)
    #expect(photos.map(\.taken.origin) == [.exif, .exif, .fileName, .fileTime, .fileTime])
    #expect(photos[0].taken.label == "2023-06-14 10:15:00.500")
    #expect(photos[2].taken.label == "2022-01-01 12:00:00")
    #expect(photos[3].taken.date.year == 2020)
    let days = try index.dayCounts(LibraryFilter(roots: [PathBytes(root)]))
    #expect(days.first == DayCount(day: CivilDate(year: 2023, month: 6, day: 14).dayNumber, count: 2))
    #expect(days.reduce(0) { $0 + $1.count } == 5)
    #expect(try index.originCounts(LibraryFilter(roots: [PathBytes(root)])) == [.exif: 2, .fileName: 1, .fileTime: 2])
  }

  @Test func aRescanReadsOnlyWhatChangedAndFollowsMovesAndDeletions() throws {
    let index = index()
    _ = try scan(index)
    #expect(try scan(index).read == 0)
    setTime("Phone/plain.jpg", 1_600_000_000)
    var summary = try scan(index)
    #expect(summary.read == 1 && summary.removed == 0)
    // Renamed: the same row, found at its new name.
    let before = try index.taken(of: PathBytes(root + "/2023/06/DSC_0001.JPG"))
    try FileManager.default.moveItem(atPath: root + "/2023/06/DSC_0001.JPG", toPath: root + "/Phone/renamed.jpg")
    try FileManager.default.removeItem(atPath: root + "/Phone/bad.jpg")
    summary = try scan(index)
    #expect(summary.moved == 1)
    #expect(summary.removed == 1)
    #expect(try index.taken(of: PathBytes(root + "/Phone/renamed.jpg")) == before)
    #expect(try index.taken(of: PathBytes(root + "/2023/06/DSC_0001.JPG")) == nil)
    #expect(try names(index).count == 4)
    // The per-day counts the triggers keep followed the move and the deletion.
    let filter = LibraryFilter(roots: [PathBytes(root)])
    #expect(try index.dayCounts(filter).reduce(0) { $0 + $1.count } == 4)
  }

  @Test func deepPagesStartAtTheirDayAndMatchCountedOnes() throws {
    let index = index()
    _ = try scan(index)
    let filter = LibraryFilter(roots: [PathBytes(root)])
    let days = try index.dayCounts(filter)
    for offset in 0..<5 {
      let counted = try index.photos(filter, offset: offset, limit: 2).map(\.path)
      let keyed = try index.photos(filter, offset: offset, limit: 2, days: days).map(\.path)
      #expect(counted == keyed, "offset \(offset)")
    }
  }

  @Test func onlyTheRootsAndTheDatesAskedForAreListed() throws {
    let index = index()
    _ = try scan(index)
    #expect(try names(index, LibraryFilter(roots: [PathBytes(root + "/Phone/")])).count == 3)
    let june = DateQuery.parse("2023-06", today: 30_000)!
    let filter = LibraryFilter(roots: [PathBytes(root)], firstDay: june.lowerBound, lastDay: june.upperBound)
    #expect(try names(index, filter) == ["DSC_0001.JPG", "DSC_0002.JPG"])
    // A sibling folder whose name starts the same is not under the root.
    #expect(try names(index, LibraryFilter(roots: [PathBytes(root + "/Pho")])).isEmpty)
  }

  @Test func theTimelineSearchesWordsCamerasAndDates() async throws {
    let index = index()
    _ = try scan(index)
    let source = TimelineSource(index: index, roots: [PathBytes(root)])
    func titles(_ query: String) async throws -> [String] {
      try await source.search(query, in: nil, page: PageRequest(offset: 0, limit: 50)).items.map {
        String(decoding: $0.title, as: UTF8.self)
      }
    }
    #expect(try await titles("x-t4") == ["DSC_0001.JPG", "DSC_0002.JPG"])
    #expect(try await titles("pixel 7") == ["IMG_20220101_120000.jpg"])
    #expect(try await titles("2022") == ["IMG_20220101_120000.jpg"])
    #expect(try await titles("phone 2020").count == 2)
    #expect(try await titles("2023-06-01..2023-06-14").count == 2)
    #expect(try await titles("nothing-like-this").isEmpty)
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 2))
    #expect(page.total == 5 && page.hasMore && page.days?.first?.count == 2)
    #expect(page.items[0].taken?.origin == .exif)
    let next = try await source.items(in: nil, page: PageRequest(offset: 2, limit: 2))
    #expect(next.total == 5 && next.hasMore)
  }

  @Test func aDamagedIndexIsSetAsideAndRebuilt() throws {
    try FileManager.default.createDirectory(atPath: root + "/.cache", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: root + "/.cache/library.sqlite", contents: Data(repeating: 0x41, count: 8192))
    let index = index()
    #expect(index.notice?.contains("set aside") == true)
    #expect(FileManager.default.fileExists(atPath: root + "/.cache/library.sqlite.corrupt"))
    #expect(index.path != nil)
    #expect(try scan(index).photos == 5)
  }

  @Test func anUnwritableCacheKeepsTheIndexInMemory() throws {
    let index = LibraryIndex(path: "/proc/picker-tui-cannot-write/library.sqlite")
    #expect(index.path == nil)
    #expect(index.notice?.contains("in memory") == true)
    #expect(try scan(index).photos == 5)
    #expect(try names(index).count == 5)
  }

  @Test func aLinkLoopAndAnUnreadableFolderDoNotStopTheScan() throws {
    try FileManager.default.createSymbolicLink(atPath: root + "/2023/loop", withDestinationPath: root)
    try FileManager.default.createDirectory(atPath: root + "/locked", withIntermediateDirectories: true)
    write("locked/x.jpg", ExifJPEG.bytes(date: "2021:01:01 00:00:00"))
    chmod(root + "/locked", 0)
    defer { chmod(root + "/locked", 0o755) }
    let summary = try scan(index())
    // As root the locked folder is read anyway; the loop is walked once.
    #expect(summary.photos == 5 + (getuid() == 0 ? 1 : 0))
    #expect(summary.unreadableFolders == (getuid() == 0 ? 0 : 1))
  }

  @Test func aFolderSortedByDateOrdersByTheDateTakenNotTheFileTime() async throws {
    // The name says 2022; the file time says 2000.
    setTime("Phone/IMG_20220101_120000.jpg", 946_684_800)
    let source = FolderSource(root: PathBytes(root + "/Phone"))
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10, sort: .date))
    #expect(
      page.items.map { String(decoding: $0.title, as: UTF8.self) } == [
        "IMG_20220101_120000.jpg", "bad.jpg", "plain.jpg",
      ])
    #expect(page.items.map { $0.taken?.origin } == [.fileName, .fileTime, .fileTime])
  }

  @Test func aPageListedAfterAChangeCarriesFreshDayCounts() async throws {
    let index = index()
    _ = try scan(index)
    let source = TimelineSource(index: index, roots: [PathBytes(root)])
    let news = try #require(source.changes())
    _ = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 2))
    // A later page of a listing already counted does not count again.
    #expect(try await source.items(in: nil, page: PageRequest(offset: 2, limit: 2)).days == nil)
    // Not plain.jpg's bytes: a copy would show once.
    write("Phone/IMG_20240101_120000.jpg", ExifJPEG.bytes(make: "Canon"))
    source.startScanning()
    for await change in news where change == .status(nil) { break }
    // The index changed: a window far from the top, listed again, gets
    // the new counts (the timeline's scale and date jumps stand on them).
    let window = try await source.items(in: nil, page: PageRequest(offset: 2, limit: 2))
    #expect(window.total == 6 && window.days?.reduce(0) { $0 + $1.count } == 6)
    source.stop()
  }

  @Test func stoppingEndsTheScanAndItsNews() async throws {
    let source = TimelineSource(index: index(), roots: [PathBytes(root)])
    let news = try #require(source.changes())
    source.startScanning()
    source.stop()
    // The stream ends: a host's loop over it returns.
    for await _ in news {}
    // And nothing starts again once stopped.
    source.refresh()
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(page.items.count <= 5)
  }
}
