import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Signatures read into the index after a scan, from real PNG files: only
/// for photos with a neighbour close in time, once, and the timeline's
/// items carry them, so a burst stacks from the index alone.
@Suite struct SignatureReaderTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "signature-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    // Dates in the names, to the second: a burst of four a second apart
    // (one scene, moved and blurred), a different scene a second after it,
    // and the burst's scene an hour later. Two copies of one scene share a
    // file time only: that is when they were copied, not taken.
    let start = 1_700_000_000
    for frame in 0..<4 {
      write(
        Self.name("burst\(frame)"), StackingTests.scene(1, shift: frame * 2, blur: frame == 2 ? 0 : 2),
        time: start + frame)
    }
    write(Self.name("other"), StackingTests.scene(5), time: start + 4)
    write(Self.name("later"), StackingTests.scene(1), time: start + 3_600)
    write("copy1.png", StackingTests.scene(7), time: start - 100)
    write("copy2.png", StackingTests.scene(7), time: start - 100)
  }

  /// The file of a photo: its date taken in its name.
  static func name(_ label: String) -> String {
    let times = [
      "burst0": "221320", "burst1": "221321", "burst2": "221322", "burst3": "221323", "other": "221324",
      "later": "231323",
    ]
    return "IMG_20231114_\(times[label]!)_\(label).png"
  }

  func write(_ name: String, _ image: PixelImage, time: Int) {
    let bytes = ImageEncoder.encode(image, as: .png)!
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
    var times = [timespec(tv_sec: time, tv_nsec: 0), timespec(tv_sec: time, tv_nsec: 0)]
    _ = utimensat(AT_FDCWD, root + "/" + name, &times, 0)
  }

  func signatures(_ index: LibraryIndex) throws -> [String: PhotoSignature?] {
    let photos = try index.photos(LibraryFilter(roots: [PathBytes(root)]), offset: 0, limit: 100)
    return Dictionary(uniqueKeysWithValues: photos.map { (String(decoding: $0.name, as: UTF8.self), $0.signature) })
  }

  @Test func onlyPhotosCloseInTimeAreReadAndOnlyOnce() throws {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    let read = try index.withDatabase { database throws(SQLiteError) in
      _ = try LibraryScanner(database: database, roots: [PathBytes(root)]).scan()
      return try SignatureReader(database: database, roots: [PathBytes(root)]).run(maxGap: 2)
    }
    #expect(read == 5)
    let signatures = try signatures(index)
    #expect(signatures[Self.name("later")]! == nil)
    #expect(signatures["copy1.png"]! == nil && signatures["copy2.png"]! == nil, "file times are no shot times")
    for name in ["burst0", "burst1", "burst2", "burst3", "other"].map(Self.name) {
      #expect(signatures[name]! != nil, "\(name) has no signature")
    }
    // The sharp frame scores highest; another scene is far in hash.
    let burst = (0..<4).map { signatures[Self.name("burst\($0)")]!! }
    #expect(burst.indices.max { burst[$0].sharpness < burst[$1].sharpness } == 2)
    #expect(burst[0].distance(to: burst[1]) <= 10 && burst[0].distance(to: signatures[Self.name("other")]!!) > 10)
    // Read once: a second run finds nothing to read.
    let again = try index.withDatabase { database throws(SQLiteError) in
      try SignatureReader(database: database, roots: [PathBytes(root)]).run(maxGap: 2)
    }
    #expect(again == 0)
  }

  @Test func aChangedFileIsReadAgain() throws {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    func scanAndRead() throws -> Int {
      try index.withDatabase { database throws(SQLiteError) in
        _ = try LibraryScanner(database: database, roots: [PathBytes(root)]).scan()
        return try SignatureReader(database: database, roots: [PathBytes(root)]).run(maxGap: 2)
      }
    }
    #expect(try scanAndRead() == 5)
    write(Self.name("burst1"), StackingTests.scene(3), time: 1_700_000_009)
    #expect(try scanAndRead() == 1)
  }

  @Test func theTimelineStacksTheBurstFromTheIndex() async throws {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    let source = TimelineSource(index: index, roots: [PathBytes(root)])
    try index.withDatabase { database throws(SQLiteError) in
      _ = try LibraryScanner(database: database, roots: [PathBytes(root)]).scan()
      try SignatureReader(database: database, roots: [PathBytes(root)]).run(maxGap: 2)
    }
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 50))
    var scope = Scope(kind: .root, label: "Photos", generation: 1, sort: .date)
    scope.restack(StackingRule())
    scope.receive(page)
    let titles = scope.items.map { String(decoding: $0.title, as: UTF8.self) }
    // Newest first; the copies, dated by their file times, come last.
    #expect(Array(titles.prefix(3)) == ["later", "other", "burst2"].map(Self.name))
    #expect(scope.items[2].stack?.count == 4)
    #expect(titles.count == 5, "the two copies stay apart: \(titles)")
  }

  @Test func aFolderSortedByDateReadsItsBurstsSignaturesAndSaysSo() async throws {
    let source = FolderSource(root: PathBytes(root))
    let request = PageRequest(offset: 0, limit: 50, sort: .date)
    let first = try await source.items(in: nil, page: request)
    #expect(first.items.allSatisfy { $0.signature == nil })
    // The signatures are read in the background; the listing is then new.
    var news = source.changes()!.makeAsyncIterator()
    #expect(await news.next() == .contentChanged)
    let page = try await source.items(in: nil, page: request)
    let signed = page.items.filter { $0.signature != nil }.map { String(decoding: $0.title, as: UTF8.self) }
    #expect(Set(signed) == Set(["burst0", "burst1", "burst2", "burst3", "other"].map(Self.name)))
    var scope = Scope(kind: .root, label: "Files", generation: 1, sort: .date)
    scope.restack(StackingRule())
    scope.receive(page)
    let titles = scope.items.map { String(decoding: $0.title, as: UTF8.self) }
    #expect(Array(titles.prefix(3)) == ["later", "other", "burst2"].map(Self.name) && titles.count == 5)
  }
}
