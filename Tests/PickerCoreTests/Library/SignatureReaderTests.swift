import Foundation
import Testing

@testable import PickerCore

/// Signatures read into the index after a scan, from real PNG files: only
/// for photos with a neighbour close in time, once, and the timeline's
/// items carry them, so a burst stacks from the index alone.
@Suite struct SignatureReaderTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "signature-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    // A burst of four a second apart (one scene, moved and blurred), a
    // different scene a second after it, and the burst's scene an hour later.
    let start = 1_700_000_000
    for frame in 0..<4 {
      write(
        "burst\(frame).png", StackingTests.scene(1, shift: frame * 2, blur: frame == 2 ? 0 : 2), time: start + frame)
    }
    write("other.png", StackingTests.scene(5), time: start + 4)
    write("later.png", StackingTests.scene(1), time: start + 3_600)
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
    #expect(signatures["later.png"]! == nil)
    for name in ["burst0.png", "burst1.png", "burst2.png", "burst3.png", "other.png"] {
      #expect(signatures[name]! != nil, "\(name) has no signature")
    }
    // The sharp frame scores highest; another scene is far in hash.
    let burst = (0..<4).map { signatures["burst\($0).png"]!! }
    #expect(burst.indices.max { burst[$0].sharpness < burst[$1].sharpness } == 2)
    #expect(burst[0].distance(to: burst[1]) <= 10 && burst[0].distance(to: signatures["other.png"]!!) > 10)
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
    write("burst1.png", StackingTests.scene(3), time: 1_700_000_001)
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
    #expect(titles == ["later.png", "other.png", "burst2.png"])
    #expect(scope.items[2].stack?.count == 4)
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
    #expect(Set(signed) == ["burst0.png", "burst1.png", "burst2.png", "burst3.png", "other.png"])
    var scope = Scope(kind: .root, label: "Files", generation: 1, sort: .date)
    scope.restack(StackingRule())
    scope.receive(page)
    #expect(scope.items.map { String(decoding: $0.title, as: UTF8.self) } == ["later.png", "other.png", "burst2.png"])
  }
}
