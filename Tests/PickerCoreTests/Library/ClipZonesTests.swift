import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A clip recorded in UTC with no position (an Android phone with location
/// off) is put on the clock of the photo nearest in time that knows its
/// offset: of its folder, else of its camera; with none within three days,
/// on this machine's clock. Whatever this machine's zone, the Tokyo clip
/// lands on the Tokyo photo's day.
@Suite struct ClipZonesTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "clip-zones-\(UUID().uuidString)"
    for folder in ["Trip", "Alone", "Clips", "Phone"] {
      try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  /// A 1-second clip made by ffmpeg, recorded at `utc`.
  func clip(_ name: String, utc: String, _ options: [String] = []) throws {
    let made = try ChildRun.run(
      ["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5", "-t", "1"]
        + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-metadata", "creation_time=\(utc)"] + options
        + [root + "/" + name])
    #expect(made.status == 0, "ffmpeg \(name)")
  }

  func scan(_ index: LibraryIndex) throws {
    _ = try index.withDatabase { database throws(SQLiteError) in
      try LibraryScanner(database: database, roots: [PathBytes(root)]).scan()
    }
  }

  func taken(_ index: LibraryIndex, _ name: String) throws -> TakenDate? {
    try index.taken(of: PathBytes(root + "/" + name))
  }

  @Test func aClipWithoutPositionTakesTheOffsetOfThePhotoNearestInTime() throws {
    write("Trip/IMG_tokyo.jpg", ExifJPEG.bytes(date: "2024:03:01 08:00:00", offset: "+09:00"))
    // A photo of the same folder a week away lends nothing: the nearer wins.
    write("Trip/IMG_home.jpg", ExifJPEG.bytes(date: "2024:02:22 08:00:00", offset: "+01:00"))
    try clip("Trip/VID_trip.mp4", utc: "2024-02-29T23:30:00Z")
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    try scan(index)
    let date = try #require(try taken(index, "Trip/VID_trip.mp4"))
    #expect(date.label == "2024-03-01 08:30:00 +09:00")
    #expect(date.zone == .nearestPhoto)
    #expect(date.originLabel == "video header; recorded in UTC, UTC+09:00 as the photo nearest in time")
    // The timeline lists it on the photo's day, after it.
    let listed = try index.photos(LibraryFilter(roots: [PathBytes(root)]), offset: 0, limit: 10)
    let trip = listed.filter { $0.path.bytes.starts(with: Array((root + "/Trip/").utf8)) }
    #expect(trip.map { String(decoding: $0.name, as: UTF8.self) } == ["VID_trip.mp4", "IMG_tokyo.jpg", "IMG_home.jpg"])
    #expect(trip.first?.taken.zone == .nearestPhoto)
  }

  @Test func withNoPhotoNearInTimeTheClipStaysOnThisMachinesClock() throws {
    write("Alone/IMG_old.jpg", ExifJPEG.bytes(date: "2024:01:01 12:00:00", offset: "+09:00"))
    try clip("Alone/VID_later.mp4", utc: "2024-02-29T23:30:00Z")
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    try scan(index)
    let date = try #require(try taken(index, "Alone/VID_later.mp4"))
    var machine = TakenDateParsing.utcSeconds(1_709_249_400, latestDay: 100_000, origin: .quicktime)
    machine?.zone = .thisMachine
    #expect(date == machine)
  }

  @Test func elsewhereThePhotosOfTheSameCameraLendTheirOffset() throws {
    write(
      "Phone/PXL_1.jpg", ExifJPEG.bytes(date: "2024:03:01 20:00:00", offset: "-05:00", make: "Google", model: "Pixel 7")
    )
    // Another camera, nearer in time, is not asked.
    write(
      "Phone/DSC_1.jpg", ExifJPEG.bytes(date: "2024:03:01 09:00:00", offset: "+01:00", make: "SONY", model: "ILCE-7M3"))
    try clip(
      "Clips/clip.mov", utc: "2024-03-02T00:30:00Z",
      ["-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.make=Google"]
        + ["-metadata", "com.apple.quicktime.model=Pixel 7"])
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    try scan(index)
    let date = try #require(try taken(index, "Clips/clip.mov"))
    #expect(date.label == "2024-03-01 19:30:00 -05:00" && date.zone == .nearestPhoto)
  }

  @Test func whenTheLendingPhotoGoesTheClipGoesBackToThisMachinesClock() throws {
    write("Trip/IMG_tokyo.jpg", ExifJPEG.bytes(date: "2024:03:01 08:00:00", offset: "+09:00"))
    try clip("Trip/VID_trip.mp4", utc: "2024-02-29T23:30:00Z")
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    try scan(index)
    #expect(try taken(index, "Trip/VID_trip.mp4")?.zone == .nearestPhoto)
    try FileManager.default.removeItem(atPath: root + "/Trip/IMG_tokyo.jpg")
    try scan(index)
    var machine = TakenDateParsing.utcSeconds(1_709_249_400, latestDay: 100_000, origin: .quicktime)
    machine?.zone = .thisMachine
    #expect(try taken(index, "Trip/VID_trip.mp4") == machine)
  }
}
