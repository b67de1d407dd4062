import Foundation
import Testing

@testable import PickerBase
@testable import PickerLibrary

/// Verdicts read the way each editor writes them, chosen between a photo
/// and its sidecar, kept in the index and filtered on.
@Suite struct CullingReadingTests {
  static func packet(_ body: String) -> [UInt8] {
    Array(
      """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:darktable="http://darktable.sf.net/" xmlns:digiKam="http://www.digikam.org/ns/1.0/"
      \(body)
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """.utf8)
  }

  @Test func lightroomsAttributes() {
    #expect(XMPCulling.read(Self.packet(#"xmp:Rating="4" xmp:Label="Red">"#)) == Culling(rating: 4, label: .red))
  }

  @Test func darktablesRejectAndColourList() {
    let packet = Self.packet(
      #"xmp:Rating="-1"><darktable:colorlabels><rdf:Seq><rdf:li>3</rdf:li><rdf:li>0</rdf:li></rdf:Seq></darktable:colorlabels>"#
    )
    #expect(XMPCulling.read(packet) == Culling(rating: -1, label: .blue))
  }

  @Test func digiKamsPickAndColourLabels() {
    #expect(
      XMPCulling.read(Self.packet(#"digiKam:PickLabel="1" digiKam:ColorLabel="6">"#))
        == Culling(rating: -1, label: .purple))
  }

  @Test func elementsAsWellAsAttributes() {
    #expect(
      XMPCulling.read(Self.packet(#"><xmp:Rating>2</xmp:Rating><xmp:Label>Green</xmp:Label>"#))
        == Culling(rating: 2, label: .green))
  }

  @Test func otherRatingsAndNothingAreNoVerdict() {
    #expect(XMPCulling.read(Self.packet(#"xmp:RatingPercent="80" MicrosoftPhoto:Rating="99">"#)) == nil)
    #expect(XMPCulling.read([]) == nil)
    #expect(XMPCulling.read(Array(repeating: 0x3C, count: 100_000)) == nil)
  }

  @Test func theNewerFileWinsAndTheFactsSaySo() {
    let own = XMPVerdict(rating: 2)
    let beside = XMPVerdict(rating: 5, label: .red)
    let newer = XMPCulling.chosen(embedded: own, sidecar: beside, photoModified: 10, sidecarModified: 20)
    #expect(newer.culling == Culling(rating: 5, label: .red))
    #expect(newer.note == "in the sidecar, newer than the photo's own (★★)")
    let older = XMPCulling.chosen(embedded: own, sidecar: beside, photoModified: 30, sidecarModified: 20)
    #expect(older.culling == Culling(rating: 2, label: .red))
    #expect(older.note == "in the photo and the sidecar")
    // A label alone in a newer sidecar keeps the photo's own stars.
    let labelOnly = XMPCulling.chosen(
      embedded: XMPVerdict(rating: 3), sidecar: XMPVerdict(label: .green), photoModified: 10, sidecarModified: 20)
    #expect(labelOnly.culling == Culling(rating: 3, label: .green))
    let photoNewer = XMPCulling.chosen(
      embedded: XMPVerdict(rating: 4), sidecar: XMPVerdict(rating: 1), photoModified: 30, sidecarModified: 20)
    #expect(photoNewer.culling == Culling(rating: 4))
    #expect(photoNewer.note == "in the photo, newer than its sidecar's (★)")
    #expect(XMPCulling.chosen(embedded: nil, sidecar: nil, photoModified: 0, sidecarModified: nil).culling == .none)
  }

  @Test func searchWords() {
    var words = ["lisbon", "rating>=3", "label:red", "-rejected"]
    let filter = CullingFilter.extract(from: &words)
    #expect(words == ["lisbon"])
    #expect(filter.minRating == 3 && filter.labels == [.red] && filter.hidesRejected)
    #expect(filter.matches(Culling(rating: 4, label: .red)))
    #expect(!filter.matches(Culling(rating: 4)))
    #expect(!filter.matches(Culling(rating: 2, label: .red)))
    var more = ["rejected", "stars<2", "rating=9", "label:pink"]
    let other = CullingFilter.extract(from: &more)
    #expect(more == ["rating=9", "label:pink"])
    #expect(other.minRating == -1 && other.maxRating == -1)
    var unrated = ["unrated"]
    #expect(CullingFilter.extract(from: &unrated).matches(.none))
  }
}

@Suite struct CullingIndexTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "culling-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root + "/shoot", withIntermediateDirectories: true)
    for n in 1...4 {
      write("shoot/DSC_000\(n).JPG", ExifJPEG.bytes(date: "2023:06:14 10:15:0\(n)", make: "FUJIFILM", model: "X-T4"))
    }
    // darktable's name, Lightroom's name, and a sidecar older than its photo.
    write("shoot/DSC_0001.JPG.xmp", CullingReadingTests.packet(#"xmp:Rating="5" xmp:Label="Red">"#))
    write("shoot/DSC_0002.xmp", CullingReadingTests.packet(#"xmp:Rating="-1">"#))
    write("shoot/DSC_0003.JPG.xmp", CullingReadingTests.packet(#"xmp:Rating="3">"#))
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  func scanned() throws -> LibraryIndex {
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    _ = try index.withDatabase { database throws(SQLiteError) in
      try LibraryScanner(database: database, roots: [PathBytes(root)]).scan()
    }
    return index
  }

  func verdicts(_ index: LibraryIndex, _ culling: CullingFilter = CullingFilter()) throws -> [String: Culling] {
    var filter = LibraryFilter(roots: [PathBytes(root)])
    filter.culling = culling
    let photos = try index.photos(filter, offset: 0, limit: 100)
    return Dictionary(uniqueKeysWithValues: photos.map { (String(decoding: $0.name, as: UTF8.self), $0.culling) })
  }

  @Test func aScanReadsEitherSidecarName() throws {
    let found = try verdicts(try scanned())
    #expect(found["DSC_0001.JPG"] == Culling(rating: 5, label: .red))
    #expect(found["DSC_0002.JPG"] == Culling(rating: -1))
    #expect(found["DSC_0003.JPG"] == Culling(rating: 3))
    #expect(found["DSC_0004.JPG"] == Culling.none)
  }

  @Test func filtersByStarsLabelAndReject() throws {
    let index = try scanned()
    var atLeast3 = CullingFilter()
    atLeast3.minRating = 3
    #expect(Set(try verdicts(index, atLeast3).keys) == ["DSC_0001.JPG", "DSC_0003.JPG"])
    var red = CullingFilter()
    red.labels = [.red]
    #expect(Set(try verdicts(index, red).keys) == ["DSC_0001.JPG"])
    var hiding = CullingFilter()
    hiding.hidesRejected = true
    #expect(try verdicts(index, hiding)["DSC_0002.JPG"] == nil)
    #expect(try verdicts(index, hiding).count == 3)
  }

  @Test func aVerdictGivenIsKeptAtOnceAndAChangedSidecarIsReadAgain() throws {
    let index = try scanned()
    try index.remember(Culling(rating: 4, label: .blue), of: PathBytes(root + "/shoot/DSC_0004.JPG"))
    #expect(try verdicts(index)["DSC_0004.JPG"] == Culling(rating: 4, label: .blue))
    // Another program rates the photo meanwhile: the next scan sees it.
    write("shoot/DSC_0003.JPG.xmp", CullingReadingTests.packet(#"xmp:Rating="1">"#))
    var later = [timespec(tv_sec: time(nil) + 10, tv_nsec: 0), timespec(tv_sec: time(nil) + 10, tv_nsec: 0)]
    _ = utimensat(AT_FDCWD, root + "/shoot/DSC_0003.JPG.xmp", &later, 0)
    let again = try scanned()
    #expect(try verdicts(again)["DSC_0003.JPG"] == Culling(rating: 1))
  }

  @Test func aHostileSidecarIsNoVerdictAndThePhotoStillLists() throws {
    write("shoot/DSC_0004.JPG.xmp", Array(repeating: 0xFF, count: 5 << 20))
    #expect(try verdicts(try scanned())["DSC_0004.JPG"] == Culling.none)
  }

  @Test func aFolderListingReadsItsSidecars() async throws {
    let source = FolderSource(root: PathBytes(root + "/shoot"))
    let page = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    let byName = Dictionary(
      uniqueKeysWithValues: page.items.map { (String(decoding: $0.title, as: UTF8.self), $0.culling) })
    #expect(byName["DSC_0001.JPG"] == Culling(rating: 5, label: .red))
    #expect(byName["DSC_0002.JPG"] == Culling(rating: -1))
    var hiding = PageRequest(offset: 0, limit: 10)
    hiding.hidesRejected = true
    #expect(try await source.items(in: nil, page: hiding).items.count == 3)
    let found = try await source.search("rating>=4", in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(found.items.map { String(decoding: $0.title, as: UTF8.self) } == ["DSC_0001.JPG"])
    await source.remember(Culling(rating: 5), of: PathBytes(root + "/shoot/DSC_0004.JPG"))
    let again = try await source.search("rating>=4", in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(again.items.count == 2)
  }
}

@Suite struct SidecarNamingTests {
  @Test func adobesNameBelongsToThePhotoAloneWithItsStem() {
    let names = [
      "IMG_1.CR2", "IMG_1.JPG", "IMG_1.xmp", "IMG_2.JPG", "img_2.xmp", "IMG_3.HEIC", "IMG_3.MOV", "IMG_3.xmp",
    ]
    let sidecars = Sidecars(names: names.map { Array($0.utf8) })
    // A RAW+JPEG pair: Lightroom's IMG_1.xmp is the raw's, not the JPEG's.
    #expect(sidecars.xmpSidecars(of: Array("IMG_1.JPG".utf8)).isEmpty)
    #expect(sidecars.xmpSidecars(of: Array("IMG_1.CR2".utf8)).isEmpty)
    #expect(sidecars.sharesStem(Array("IMG_1.JPG".utf8)))
    // Either case; a Live Photo's MOV shares no photo's stem.
    #expect(sidecars.xmpSidecars(of: Array("IMG_2.JPG".utf8)) == [Array("img_2.xmp".utf8)])
    #expect(sidecars.xmpSidecars(of: Array("IMG_3.HEIC".utf8)) == [Array("IMG_3.xmp".utf8)])
  }

  @Test func aNewSidecarNeverTakesAnotherPhotosName() {
    let photo = PathBytes("/p/IMG_1.JPG")
    #expect(XMPWriter.newSidecars(of: photo, naming: .adobe, sharesStem: false) == [PathBytes("/p/IMG_1.xmp")])
    #expect(XMPWriter.newSidecars(of: photo, naming: .adobe, sharesStem: true) == [PathBytes("/p/IMG_1.JPG.xmp")])
    #expect(
      XMPWriter.newSidecars(of: photo, naming: .both, sharesStem: false) == [
        PathBytes("/p/IMG_1.JPG.xmp"), PathBytes("/p/IMG_1.xmp"),
      ])
    #expect(
      XMPWriter.newSidecars(of: PathBytes(".hidden"), naming: .adobe, sharesStem: false) == [PathBytes(".hidden.xmp")])
  }
}

@Suite struct FolderVerdictTests {
  /// A JPEG with an XMP segment holding `packet`, as Lightroom writes one.
  static func jpeg(xmp packet: [UInt8]) -> [UInt8] {
    let body = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + packet
    let length = body.count + 2
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
      + ExifJPEG.bytes(date: "2023:06:14 10:15:00").dropFirst(2)
  }

  @Test func aPhotosOwnVerdictArrivesAfterItsFirstPage() async throws {
    let root = NSTemporaryDirectory() + "folder-verdicts-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    _ = FileManager.default.createFile(
      atPath: root + "/rated.jpg",
      contents: Data(Self.jpeg(xmp: CullingReadingTests.packet(#"xmp:Rating="4" xmp:Label="Yellow">"#))))
    let source = FolderSource(root: PathBytes(root))
    let first = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    // The page does not wait for the header…
    #expect(first.items[0].culling == Culling.none)
    // …which is read behind it; the listing is announced again.
    var changes = source.changes()!.makeAsyncIterator()
    #expect(await changes.next() == .contentChanged)
    let again = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    #expect(again.items[0].culling == Culling(rating: 4, label: .yellow))
  }
}

@Suite struct FolderQuietTests {
  @Test func photosWithNoVerdictAnnounceNothing() async throws {
    let root = NSTemporaryDirectory() + "folder-quiet-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    for n in 1...3 {
      _ = FileManager.default.createFile(atPath: root + "/\(n).jpg", contents: Data(ExifJPEG.bytes()))
    }
    let source = FolderSource(root: PathBytes(root))
    _ = try await source.items(in: nil, page: PageRequest(offset: 0, limit: 10))
    // Their headers are read behind the page; saying nothing new, they
    // ask for no second listing.
    try await Task.sleep(nanoseconds: 300_000_000)
    source.stop()
    var changes = source.changes()!.makeAsyncIterator()
    #expect(await changes.next() == nil)
  }
}
