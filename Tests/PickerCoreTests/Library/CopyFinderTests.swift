import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Copies in the index on real files: a photo copied into two album
/// folders shows once (the copy in the first root, first by path), with
/// the others' paths; one byte different, or a different size, is no
/// copy; hard links are copies; a copy deleted shows the other alone again;
/// a search by a copy's folder finds the photo; day counts count it once.
@Suite struct CopyFinderTests {
  let root: String
  let photo = ExifJPEG.bytes(date: "2023:06:14 10:15:00", make: "FUJIFILM", model: "X-T4")

  init() throws {
    root = NSTemporaryDirectory() + "copies-test-\(UUID().uuidString)"
    for folder in ["Camera", "Albums/Lisbon", "Albums/Best", "Other"] {
      try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    write("Camera/DSC_0022.jpg", photo)
    write("Albums/Lisbon/DSC_0022.jpg", photo)
    write("Albums/Best/beach.jpg", photo)
    // The same size, one byte different at the end: another photo.
    var changed = photo
    changed[changed.count - 3] ^= 0x01
    write("Other/almost.jpg", changed)
    write("Other/unique.jpg", ExifJPEG.bytes(date: "2023:06:14 11:00:00", make: "Google", model: "Pixel 7"))
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  func scanned(roots: [String]? = nil) throws -> LibraryIndex {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    let paths = (roots ?? [root]).map { PathBytes($0) }
    _ = try index.scan(paths)
    try index.findCopies(paths)
    return index
  }

  func listed(_ index: LibraryIndex, roots: [String]? = nil, words: [String] = []) throws -> [IndexedPhoto] {
    var filter = LibraryFilter(roots: (roots ?? [root]).map { PathBytes($0) })
    filter.words = words
    return try index.photos(filter, offset: 0, limit: 100)
  }

  func relative(_ path: PathBytes) -> String { String(path.lossyString.dropFirst(root.count + 1)) }

  @Test func aPhotoCopiedTwiceShowsOnceWithItsCopiesPaths() throws {
    let index = try scanned()
    let photos = try listed(index)
    #expect(photos.count == 3)
    let shown = try #require(photos.first { $0.copyCount > 0 })
    // First by path: Albums/Best/beach.jpg sorts before Albums/Lisbon and Camera.
    #expect(relative(shown.path) == "Albums/Best/beach.jpg")
    #expect(shown.copies.map(relative) == ["Albums/Lisbon/DSC_0022.jpg", "Camera/DSC_0022.jpg"])
    #expect(photos.contains { relative($0.path) == "Other/almost.jpg" && $0.copyCount == 0 })
    // Counted once in the day's count.
    let day = try index.dayCounts(LibraryFilter(roots: [PathBytes(root)]))
    #expect(day.map(\.count).reduce(0, +) == 3)
  }

  /// A failed sync leaves empty files: each is shown as the damage it is,
  /// none hidden as a copy of another, none stacked by its burst-like name.
  @Test func emptyFilesAreNeverCopiesNorStacks() throws {
    try FileManager.default.createDirectory(atPath: root + "/Empty", withIntermediateDirectories: true)
    for n in 0..<5 { write("Empty/IMG_2023061\(n)_BURST00\(n).jpg", []) }
    let index = try scanned()
    let empty = try listed(index).filter { relative($0.path).hasPrefix("Empty/") }
    #expect(empty.count == 5)
    #expect(empty.allSatisfy { $0.copyCount == 0 && $0.burstID == nil })
    #expect(try index.findCopies([PathBytes(root)]) == 2)
  }

  @Test func theFirstRootsCopyIsTheOneShown() throws {
    let index = try scanned(roots: [root + "/Camera", root + "/Albums"])
    let photos = try listed(index, roots: [root + "/Camera", root + "/Albums"])
    #expect(photos.map { relative($0.path) } == ["Camera/DSC_0022.jpg"])
    #expect(photos[0].copyCount == 2)
  }

  @Test func aSearchByACopysFolderFindsThePhoto() throws {
    let index = try scanned()
    #expect(try listed(index, words: ["lisbon"]).map { relative($0.path) } == ["Albums/Best/beach.jpg"])
    #expect(try index.dayCounts(self.filter(words: ["lisbon"])).map(\.count) == [1])
  }

  func filter(words: [String]) -> LibraryFilter {
    var filter = LibraryFilter(roots: [PathBytes(root)])
    filter.words = words
    return filter
  }

  @Test func aCopyDeletedLeavesTheOthersAndTheLastAlone() throws {
    var index = try scanned()
    try FileManager.default.removeItem(atPath: root + "/Albums/Best/beach.jpg")
    index = try scanned()
    var shown = try #require(try listed(index).first { $0.copyCount > 0 })
    #expect(relative(shown.path) == "Albums/Lisbon/DSC_0022.jpg" && shown.copyCount == 1)
    try FileManager.default.removeItem(atPath: root + "/Albums/Lisbon/DSC_0022.jpg")
    index = try scanned()
    let photos = try listed(index)
    #expect(photos.count == 3 && photos.allSatisfy { $0.copyCount == 0 })
    shown = try #require(photos.first { relative($0.path) == "Camera/DSC_0022.jpg" })
    #expect(shown.copies.isEmpty)
  }

  @Test func hardLinksAreCopies() throws {
    #expect(link(root + "/Other/unique.jpg", root + "/Camera/linked.jpg") == 0)
    let index = try scanned()
    let unique = try #require(try listed(index).first { $0.name == Array("linked.jpg".utf8) })
    #expect(unique.copies.map(relative) == ["Other/unique.jpg"])
  }

  @Test func aRescanReadsNothingAgainAndAChangedFileIsComparedAfresh() throws {
    var index = try scanned()
    #expect(try listed(index).count == 3)
    // The copy in Camera changes by a byte, size kept: no longer a copy.
    var changed = photo
    changed[changed.count - 5] ^= 0x02
    write("Camera/DSC_0022.jpg", changed)
    index = try scanned()
    let photos = try listed(index)
    #expect(photos.count == 4)
    #expect(photos.first { $0.copyCount > 0 }?.copies.map(relative) == ["Albums/Lisbon/DSC_0022.jpg"])
  }

  @Test func aRunAfterAScanThatChangedNothingOverTheSameRootsIsSkipped() throws {
    let index = try scanned()
    #expect(try index.findCopies([PathBytes(root)], changed: false) == 2)
    // Other roots: looked at again, even with nothing changed.
    let camera = [PathBytes(root + "/Camera"), PathBytes(root + "/Albums")]
    #expect(try index.findCopies(camera, changed: false) == 2)
    #expect(
      try listed(index, roots: [root + "/Camera", root + "/Albums"]).map { relative($0.path) } == [
        "Camera/DSC_0022.jpg"
      ])
  }

  @Test func theHashesTellAByteApartAndReadTheEnds() {
    var a = ContentHasher()
    a.add(ArraySlice(photo))
    var b = ContentHasher()
    var other = photo
    other[10] ^= 1
    b.add(ArraySlice(other))
    #expect(a.finish(length: photo.count) != b.finish(length: other.count))
    // Fed in pieces of any size, the same bytes hash the same.
    var pieces = ContentHasher()
    pieces.add(ArraySlice(photo[0..<3]))
    pieces.add(ArraySlice(photo[3..<20]))
    pieces.add(ArraySlice(photo[20...]))
    var whole = ContentHasher()
    whole.add(ArraySlice(photo))
    #expect(pieces.finish(length: photo.count) == whole.finish(length: photo.count))
  }
}

/// Tiles that look alike say where the focused one is: a photo with copies
/// and a photo of an opened stack name their folder on the status line.
@Suite struct ConfusableTilesTests {
  @Test func aPhotoWithCopiesNamesItsFolderOnTheStatusLine() {
    var (state, effects) = Fixture.started()
    var photo = Fixture.photo("DSC_0022.jpg", folder: "/lib/Albums/Lisbon")
    photo.copies = [PathBytes("/lib/Camera/DSC_0022.jpg")]
    _ = state.answerLoad(from: effects, with: [photo, Fixture.photo("other.jpg")])
    let lines = AppView.render(state, theme: .monochrome).plainText.components(separatedBy: "\n")
    #expect(lines.last?.hasPrefix("in /lib/Albums/Lisbon · ") == true, "\(lines.last ?? "")")
    #expect(lines.contains { $0.contains("◫2") })
    state.press(.right)
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("in /lib/Albums") == false)
  }

  @Test func aPhotoOfAnOpenedStackNamesItsFolder() {
    var state = StackedListingTests.started()
    state.press(.right, .right, .enter)
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("in /p · "))
  }
}
