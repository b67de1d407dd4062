import CImaging
import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Live Photos (a still and a MOV of the same name) and Motion Photos: the
/// index pairs them, the timeline marks the still LIVE, and the MOV is
/// found beside a picked still for `--live-videos`.
@Suite struct LivePhotosTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "live-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  func write(_ name: String, _ bytes: [UInt8] = ExifJPEG.bytes(date: "2023:06:14 10:15:00")) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  @Test func aStillWithItsMOVIsOneLiveTileAndAMOVComingOrGoingIsSeen() async throws {
    write("IMG_0001.JPG")
    write("IMG_0001.MOV", Array("not read".utf8))
    write("IMG_0002.jpg")
    write("MVIMG_20230614_101500.jpg")
    write("PXL_20230614_101501.MP.jpg")
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    func scan() throws -> ScanSummary {
      try index.withDatabase { database throws(SQLiteError) in
        try LibraryScanner(database: database, roots: [PathBytes(root)], placeNamer: nil).scan()
      }
    }
    func live() async throws -> [String: Bool] {
      let source = TimelineSource(index: index, roots: [PathBytes(root)])
      let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
      return Dictionary(uniqueKeysWithValues: page.items.map { (String(decoding: $0.title, as: UTF8.self), $0.isLive) })
    }
    _ = try scan()
    // The MOV is no photo of its own: four tiles.
    #expect(
      try await live() == [
        "IMG_0001.JPG": true, "IMG_0002.jpg": false, "MVIMG_20230614_101500.jpg": true,
        "PXL_20230614_101501.MP.jpg": true,
      ])
    // A MOV copied in later pairs at the next scan; one removed unpairs.
    write("IMG_0002.mov", Array("not read".utf8))
    try FileManager.default.removeItem(atPath: root + "/IMG_0001.MOV")
    #expect(try scan().read == 2)
    let after = try await live()
    #expect(after["IMG_0001.JPG"] == false && after["IMG_0002.jpg"] == true)
  }

  @Test func aRenamedMOVIsPairedByAppleContentIdentifier() async throws {
    let id = "3C8F2A5E-0B1D-4E57-9C2A-6B3E1F0D7A11"
    write("IMG_0007.HEIC", ExifJPEG.bytes(date: "2023:06:14 10:15:00", appleContentID: id))
    write("IMG_0008.jpg", ExifJPEG.bytes(date: "2023:06:14 10:16:00"))
    // The MOV renamed on upload, carrying the same identifier.
    let made = try ChildRun.run(
      ["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-t", "1"]
        + ["-c:v", "libx264", "-movflags", "use_metadata_tags", "-metadata"]
        + ["com.apple.quicktime.content.identifier=\(id)", root + "/upload-4711.mov"])
    #expect(made.status == 0)
    var header = pk_photo_header()
    _ = pk_read_photo_header(root + "/upload-4711.mov", &header)
    #expect(withUnsafeBytes(of: header.content_id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } == id)
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    func scan() throws {
      _ = try index.withDatabase { database throws(SQLiteError) in
        try LibraryScanner(database: database, roots: [PathBytes(root)], placeNamer: nil).scan()
      }
    }
    func listed() async throws -> [String: Bool] {
      let source = TimelineSource(index: index, roots: [PathBytes(root)])
      let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
      return Dictionary(uniqueKeysWithValues: page.items.map { (String(decoding: $0.title, as: UTF8.self), $0.isLive) })
    }
    try scan()
    #expect(try await listed() == ["IMG_0007.HEIC": true, "IMG_0008.jpg": false])
    let days = try index.dayCounts(LibraryFilter(roots: [PathBytes(root)]))
    #expect(days.map(\.count).reduce(0, +) == 2)
    // --live-videos prints the renamed MOV after its still.
    #expect(LivePhotos.video(beside: PathBytes(root + "/IMG_0007.HEIC")) == PathBytes(root + "/upload-4711.mov"))
    #expect(LivePhotos.video(beside: PathBytes(root + "/IMG_0008.jpg")) == nil)
    // The still gone, the MOV is a video of its own again.
    try FileManager.default.removeItem(atPath: root + "/IMG_0007.HEIC")
    try scan()
    #expect(try await listed() == ["upload-4711.mov": false, "IMG_0008.jpg": false])
  }

  @Test func theMOVBesideAPickedStillIsFoundByItsName() {
    write("IMG_0003.HEIC")
    write("IMG_0003.MOV", [])
    write("IMG_0004.jpg")
    write("IMG_0004.mov.jpg")
    #expect(LivePhotos.video(beside: PathBytes(root + "/IMG_0003.HEIC")) == PathBytes(root + "/IMG_0003.MOV"))
    #expect(LivePhotos.video(beside: PathBytes(root + "/IMG_0004.jpg")) == nil)
    // A PNG is no Live Photo's still.
    write("shot.png")
    write("shot.mov", [])
    #expect(LivePhotos.video(beside: PathBytes(root + "/shot.png")) == nil)
  }

  @Test func motionPhotosAreToldByTheirNamesInEitherCase() {
    for name in ["MVIMG_20230614_101500.jpg", "mvimg_1.JPG", "PXL_20230614_101500123.MP.jpg", "a.mp.JPEG"] {
      #expect(LivePhotos.isMotionPhoto(name: Array(name.utf8)), "\(name)")
    }
    for name in ["MVIMG_1.png", "IMG_1.jpg", "mp.jpg", "MVIMG_", "x.MP.JPGX", "", "é.mp.jpg.mov"] {
      #expect(!LivePhotos.isMotionPhoto(name: Array(name.utf8)), "\(name)")
    }
    // A slice of a lowered name (the search catalog's) is asked the same way.
    #expect(LivePhotos.isMotionPhoto(name: Array("xpxl_1.mp.jpg".utf8)[1...]))
  }

  @Test func theConfigCanAskForTheVideosToo() throws {
    #expect(try ConfigFile.parse("[library]\nlive_videos = true\n", path: "c.toml").printsLiveVideos)
    #expect(throws: ConfigFile.Error.self) { try ConfigFile.parse("[library]\nlive_videos = 1\n", path: "c.toml") }
  }
}
