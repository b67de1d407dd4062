import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Videos are listed with the photos in Files, Photos and given paths,
/// marked and with their length; a Live Photo's MOV is not listed on its
/// own, in Files as in Photos.
@Suite struct VideoListingTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "video-listing-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    // A 2.5-second clip dated by its movie header, a Live pair, a photo,
    // and a file that is neither.
    let made = try ChildRun.run(
      ["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "2.5"]
        + ["-c:v", "libx264", "-metadata", "creation_time=2021-05-02T10:00:00Z", root + "/VID_0001.mp4"])
    #expect(made.status == 0)
    write("IMG_0002.HEIC", ExifJPEG.bytes(date: "2021:05:01 09:00:00"))
    write("IMG_0002.MOV", Array("a live video".utf8))
    write("IMG_0003.jpg", ExifJPEG.bytes(date: "2021:04:30 08:00:00"))
    write("notes.txt", Array("no picture".utf8))
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  struct Listed: Equatable {
    var name: String
    var isVideo: Bool
    var isLive: Bool
    var seconds: Double?
  }

  func listed(_ page: Page) -> [Listed] {
    page.items.map {
      Listed(
        name: String(decoding: $0.title, as: UTF8.self), isVideo: $0.isVideo, isLive: $0.isLive,
        seconds: $0.videoSeconds.map { ($0 * 10).rounded() / 10 })
    }
  }

  let expected = [
    Listed(name: "VID_0001.mp4", isVideo: true, isLive: false, seconds: 2.5),
    Listed(name: "IMG_0002.HEIC", isVideo: false, isLive: true, seconds: nil),
    Listed(name: "IMG_0003.jpg", isVideo: false, isLive: false, seconds: nil),
  ]

  @Test func filesListsVideosWithTheirLengthAndALivePairOnce() async throws {
    let source = FolderSource(root: PathBytes(root))
    let byName = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10, sort: .name))
    #expect(Set(listed(byName).map(\.name)) == Set(expected.map(\.name)))
    #expect(listed(byName).first { $0.isVideo } == expected[0])
    // By date the headers are read anyway: the clip is the newest.
    let byDate = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10, sort: .date))
    #expect(listed(byDate) == expected)
  }

  @Test func photosIndexesTheVideoAtItsDateAndNotTheLiveMOV() async throws {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    let summary = try index.withDatabase { database throws(SQLiteError) in
      try LibraryScanner(database: database, roots: [PathBytes(root)], placeNamer: nil).scan()
    }
    #expect(summary.photos == 3)
    let source = TimelineSource(index: index, roots: [PathBytes(root)])
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(listed(page) == expected)
    #expect(page.items[0].taken?.origin == .quicktime)
  }

  @Test func videosNeverStack() throws {
    // Two shots and a clip in the same second, the clip named like a
    // Samsung burst frame: only the shots are stacking's neighbours.
    write("20210502_100000_001.jpg", ExifJPEG.bytes(date: "2021:05:02 10:00:00"))
    write("20210502_100000_002.jpg", ExifJPEG.bytes(date: "2021:05:02 10:00:00"))
    try FileManager.default.copyItem(atPath: root + "/VID_0001.mp4", toPath: root + "/20210502_100000_003.mp4")
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    let names = try index.withDatabase { database throws(SQLiteError) in
      _ = try LibraryScanner(database: database, roots: [PathBytes(root)], placeNamer: nil).scan()
      return try SignatureReader(database: database, roots: [PathBytes(root)]).unsignedNeighbours(maxGap: 2)
        .map { $0.path.lastComponent }
    }
    #expect(Set(names) == [Array("20210502_100000_001.jpg".utf8), Array("20210502_100000_002.jpg".utf8)])
    let clip = PhotoMetadataReader.read(
      path: PathBytes(root + "/20210502_100000_003.mp4"), name: Array("20210502_100000_003.mp4".utf8),
      modified: timespec(), latestDay: 30_000)
    #expect(clip.isVideo && clip.burstID == nil && clip.videoSeconds == 2.5)
  }

  @Test func givenPathsMarkAVideo() async throws {
    let source = GivenPathsSource(paths: [PathBytes(root + "/VID_0001.mp4"), PathBytes(root + "/IMG_0003.jpg")])
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(listed(page) == [expected[0], expected[2]])
  }
}
