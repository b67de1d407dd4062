import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A fresh folder under the system temp folder, removed at deinit.
final class TemporaryFolder {
  let url: URL
  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("picker-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(at: url) }

  var path: String { url.path }

  func file(_ relative: String, modified: Date? = nil) {
    let target = url.appendingPathComponent(relative)
    try! FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: target.path, contents: Data("x".utf8))
    if let modified {
      try! FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: target.path)
    }
  }

  func folder(_ relative: String) {
    try! FileManager.default.createDirectory(
      at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
  }
}

private func titles(_ page: Page) -> [String] {
  page.items.map { String(decoding: $0.title, as: UTF8.self) }
}

@Suite struct FolderSourceTests {
  @Test func listsFoldersFirstThenPhotosInNaturalOrder() async throws {
    let folder = TemporaryFolder()
    for name in ["IMG_10.jpg", "IMG_2.jpg", "b.PNG", "notes.txt", ".hidden.jpg", "Zoo/x.jpg", "Album/y.jpg"] {
      folder.file(name)
    }
    folder.folder(".git")
    let source = FolderSource(root: PathBytes(folder.path))
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(titles(page) == ["Album", "Zoo", "b.PNG", "IMG_2.jpg", "IMG_10.jpg"])
    #expect(page.items[0].isFolder && !page.items[2].isFolder)
    #expect(page.total == 5 && !page.hasMore)
  }

  @Test func pagesSliceTheListing() async throws {
    let folder = TemporaryFolder()
    for n in 1...25 { folder.file("p\(n).jpg") }
    let source = FolderSource(root: PathBytes(folder.path))
    let first = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    let last = try await source.items(in: nil, page: PageRequest(offset: 20, limit: 10))
    #expect(titles(first).first == "p1" + ".jpg" && first.hasMore && first.items.count == 10)
    #expect(titles(last) == (21...25).map { "p\($0).jpg" } && !last.hasMore)
  }

  @Test func subFoldersAndOutputPathsKeepTheRootAsGiven() async throws {
    let folder = TemporaryFolder()
    folder.file("Album/Deep/a.jpg")
    let root = folder.path + "/"
    let source = FolderSource(root: PathBytes(root))
    let top = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    let album = try await source.items(in: top.items[0].id, page: PageRequest(offset: 0, limit: 10))
    let deep = try await source.items(in: album.items[0].id, page: PageRequest(offset: 0, limit: 10))
    #expect(deep.items[0].outputPath?.lossyString == folder.path + "/Album/Deep/a.jpg")
    #expect(deep.items[0].id == "Album/Deep/a.jpg")
  }

  @Test func sortsByDateNewestFirst() async throws {
    let folder = TemporaryFolder()
    folder.file("old.jpg", modified: Date(timeIntervalSince1970: 1_000))
    folder.file("new.jpg", modified: Date(timeIntervalSince1970: 3_000))
    folder.file("mid.jpg", modified: Date(timeIntervalSince1970: 2_000))
    let source = FolderSource(root: PathBytes(folder.path))
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10, sort: .date))
    #expect(titles(page) == ["new.jpg", "mid.jpg", "old.jpg"])
  }

  @Test func unreadableFolderIsAnErrorWithItsName() async {
    let source = FolderSource(root: PathBytes("/nonexistent/picker-tui"))
    await #expect(throws: SourceError.self) {
      _ = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    }
  }

  @Test func searchMatchesNamesInTheFolderThenThePathsBelowIt() async throws {
    let folder = TemporaryFolder()
    for name in ["Beach 1.jpg", "beach2.png", "city.jpg", "Beaches/x.jpg", "2023/summer/beach/IMG_1.jpg", "2023/y.jpg"]
    {
      folder.file(name)
    }
    let source = FolderSource(root: PathBytes(folder.path))
    let page = try await source.search("BEACH", in: nil, page: PageRequest(offset: 0, limit: 10))
    // Below, by the path from the folder searched: marked as such.
    #expect(titles(page) == ["Beaches", "Beach 1.jpg", "beach2.png", "2023/summer/beach/IMG_1.jpg", "Beaches/x.jpg"])
    #expect(page.note == "2 found in folders below this one")
    #expect(page.items[3].outputPath == PathBytes(folder.path + "/2023/summer/beach/IMG_1.jpg"))
    // From a subfolder: what is below it.
    let top = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    let year = try #require(top.items.first { String(decoding: $0.title, as: UTF8.self) == "2023" })
    let inYear = try await source.search("beach", in: year.id, page: PageRequest(offset: 0, limit: 10))
    #expect(titles(inYear) == ["summer/beach/IMG_1.jpg"])
  }

  @Test func withTheIndexASearchBelowIsOneQuery() async throws {
    let folder = TemporaryFolder()
    for name in ["a.jpg", "trips/beach/b.jpg", "trips/c.jpg"] { folder.file(name) }
    let index = LibraryIndex(path: nil)
    _ = try index.withDatabase { database throws(SQLiteError) in
      try LibraryScanner(database: database, roots: [CanonicalRoot.of(PathBytes(folder.path))]).scan()
    }
    // A file the index does not know is not found: no walk.
    folder.file("trips/beach/new.jpg")
    let source = FolderSource(root: PathBytes(folder.path), index: index)
    let page = try await source.search("beach", in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(titles(page) == ["trips/beach/b.jpg"])
  }

  @Test func symlinksAreFollowed() async throws {
    let folder = TemporaryFolder()
    folder.file("real/a.jpg")
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/link", withDestinationPath: folder.path + "/real")
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/pic.jpg", withDestinationPath: folder.path + "/real/a.jpg")
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/dangling.jpg", withDestinationPath: "/nope")
    let source = FolderSource(root: PathBytes(folder.path))
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(titles(page) == ["link", "real", "pic.jpg"])
  }
}

@Suite struct GivenPathsSourceTests {
  @Test func keepsTheGivenOrderAndMarksMissingFiles() async throws {
    let folder = TemporaryFolder()
    folder.file("z.jpg")
    folder.file("a.jpg")
    let paths = [folder.path + "/z.jpg", folder.path + "/gone.jpg", folder.path + "/a.jpg", folder.path + "/z.jpg"]
    let source = GivenPathsSource(paths: paths.map(PathBytes.init))
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(titles(page) == ["z.jpg", "gone.jpg", "a.jpg"])
    #expect(page.items.map(\.isMissing) == [false, true, false])
    #expect(!page.items[1].isPickable && page.items[0].isPickable)
    #expect(page.items[2].outputPath == PathBytes(folder.path + "/a.jpg"))
  }

  @Test func streamedPathsArriveInPages() async throws {
    let stream = PathStream()
    let source = GivenPathsSource(stream: stream)
    stream.append(contentsOf: (1...3).map { PathBytes("/p\($0).jpg") })
    async let page = source.items(in: nil, page: PageRequest(offset: 0, limit: 5))
    // The page waits for five paths, or the end of the input.
    stream.append(contentsOf: [PathBytes("/p4.jpg")])
    stream.finish()
    let result = try await page
    #expect(result.items.count == 4 && !result.hasMore && result.total == 4)
  }

  @Test func aFullPageDoesNotWaitForTheEnd() async throws {
    let stream = PathStream(paths: (1...6).map { PathBytes("/p\($0).jpg") })
    let source = GivenPathsSource(stream: stream)
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 5))
    #expect(page.items.count == 5 && page.hasMore && page.total == nil)
  }

  @Test func foldersInAStreamedListAreSkippedWithANote() async throws {
    let folder = TemporaryFolder()
    folder.file("a.jpg")
    folder.file("Album/b.jpg")
    let stream = PathStream(skipsFolders: true)
    stream.append(contentsOf: [folder.path, folder.path + "/a.jpg", folder.path + "/Album"].map { PathBytes($0) })
    stream.finish()
    let page = try await GivenPathsSource(stream: stream).items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(titles(page) == ["a.jpg"])
    #expect(page.note == "2 folders in the list skipped: only files are offered")
  }
}
