import Foundation
import Testing

@testable import PickerBase
@testable import PickerLibrary

/// `video`, `photo`, `live`, `raw` and their `-` forms, in the index's
/// search and in a folder's, and `--only`.
@Suite struct KindFilterTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "kinds-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
    let jpeg = ExifJPEG.bytes(date: "2023:06:14 10:15:00", make: "FUJIFILM", model: "X-T4")
    write("trip/DSC_0001.JPG", jpeg)
    write("trip/DSC_0002.NEF", jpeg)
    write("trip/clip.mp4", Array("not really a movie".utf8))
    // A Live Photo: the still and its MOV by name.
    write("trip/IMG_0007.JPG", jpeg)
    write("trip/IMG_0007.MOV", Array("not really a movie".utf8))
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  static func names(_ page: Page) -> Set<String> {
    Set(page.items.map { String(decoding: $0.title, as: UTF8.self) })
  }

  func timeline(kinds: KindFilter = KindFilter()) throws -> TimelineSource {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    _ = try index.withDatabase { database throws(SQLiteError) in
      try LibraryScanner(database: database, roots: [PathBytes(root)]).scan()
    }
    return TimelineSource(index: index, roots: [PathBytes(root)], kinds: kinds)
  }

  static let first = PageRequest(offset: 0, limit: 50)

  @Test func wordsParse() {
    var words = ["beach", "videos", "-raw", "rating>=3", "Live"]
    let kinds = KindFilter.extract(from: &words)
    #expect(words == ["beach", "rating>=3"])
    #expect(kinds == KindFilter(wanted: [.video, .live], unwanted: [.raw]))
  }

  @Test func theIndexTellsKindsApart() async throws {
    let source = try timeline()
    let all = Self.names(try await source.items(in: nil, page: Self.first))
    #expect(all.isSuperset(of: ["DSC_0001.JPG", "DSC_0002.NEF", "clip.mp4", "IMG_0007.JPG"]))
    #expect(Self.names(try await source.search("video", in: nil, page: Self.first)) == ["clip.mp4"])
    #expect(
      Self.names(try await source.search("-video", in: nil, page: Self.first)) == [
        "DSC_0001.JPG", "DSC_0002.NEF", "IMG_0007.JPG",
      ])
    #expect(Self.names(try await source.search("raw", in: nil, page: Self.first)) == ["DSC_0002.NEF"])
    #expect(Self.names(try await source.search("live", in: nil, page: Self.first)) == ["IMG_0007.JPG"])
    #expect(Self.names(try await source.search("photo -raw dsc", in: nil, page: Self.first)) == ["DSC_0001.JPG"])
    // The day counts follow: one day, as many as listed.
    let videos = try await source.search("video", in: nil, page: Self.first)
    #expect(videos.days?.map(\.count).reduce(0, +) == 1)
  }

  @Test func onlyNarrowsTheTimelineAndItsSearches() async throws {
    let source = try timeline(kinds: KindFilter(wanted: [.video]))
    #expect(Self.names(try await source.items(in: nil, page: Self.first)) == ["clip.mp4"])
    #expect(Self.names(try await source.search("photo", in: nil, page: Self.first)).isEmpty)
  }

  @Test func aFolderTellsKindsApartByName() async throws {
    let source = FolderSource(root: PathBytes(root + "/trip"))
    #expect(Self.names(try await source.search("video", in: nil, page: Self.first)) == ["clip.mp4"])
    #expect(Self.names(try await source.search("raw", in: nil, page: Self.first)) == ["DSC_0002.NEF"])
    #expect(Self.names(try await source.search("live", in: nil, page: Self.first)) == ["IMG_0007.JPG"])
    let only = FolderSource(root: PathBytes(root), kinds: KindFilter(wanted: [.photo]))
    let top = try await only.items(in: nil, page: Self.first)
    // Folders stay, to be opened.
    #expect(Self.names(top) == ["trip"])
    let inside = try await only.items(in: top.items[0].id, page: Self.first)
    #expect(Self.names(inside) == ["DSC_0001.JPG", "DSC_0002.NEF", "IMG_0007.JPG"])
  }
}
