import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The WebDAV source's two pure parts: reading a PROPFIND reply safely, and
/// turning its entries into albums and photos without leaving the base URL.
@Suite struct WebDAVTests {
  let base = "http://127.0.0.1:8080/remote.php/dav/files/alice/Photos/"

  func reply(_ responses: String, prefix: String = "d") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <\(prefix):multistatus xmlns:\(prefix)="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
      \(responses)
      </\(prefix):multistatus>
      """.utf8)
  }

  func response(_ href: String, collection: Bool = false, type: String? = nil, extra: String = "", prefix: String = "d")
    -> String
  {
    let p = prefix
    return """
      <\(p):response><\(p):href>\(href)</\(p):href>
        <\(p):propstat><\(p):prop>
          <\(p):resourcetype>\(collection ? "<\(p):collection/>" : "")</\(p):resourcetype>
          \(type.map { "<\(p):getcontenttype>\($0)</\(p):getcontenttype>" } ?? "")
          <\(p):getcontentlength>1234</\(p):getcontentlength>
          <\(p):getetag>"abc"</\(p):getetag>\(extra)
        </\(p):prop><\(p):status>HTTP/1.1 200 OK</\(p):status></\(p):propstat>
        <\(p):propstat><\(p):prop><\(p):quota/></\(p):prop><\(p):status>HTTP/1.1 404 Not Found</\(p):status></\(p):propstat>
      </\(p):response>
      """
  }

  @Test func readsEntriesWhateverTheNamespacePrefix() throws {
    for prefix in ["d", "D", "ns0"] {
      let body = reply(
        response("/remote.php/dav/files/alice/Photos/", collection: true, prefix: prefix)
          + response("/remote.php/dav/files/alice/Photos/a.jpg", type: "image/jpeg", prefix: prefix),
        prefix: prefix)
      let entries = try Multistatus.parse(body)
      #expect(entries.count == 2, "prefix \(prefix)")
      #expect(entries[0].isCollection && !entries[1].isCollection)
      #expect(entries[1].contentType == "image/jpeg" && entries[1].contentLength == 1234)
      #expect(entries[1].etag == "\"abc\"")
    }
  }

  @Test func nextcloudsFileIDAndPreviewFlag() throws {
    let entries = try Multistatus.parse(
      reply(
        response("/a.jpg", type: "image/jpeg", extra: "<oc:fileid>42</oc:fileid><nc:has-preview>true</nc:has-preview>"))
    )
    #expect(entries[0].fileID == "42" && entries[0].hasPreview == true)
  }

  @Test func aDoctypeIsRefusedSoEntityBombsNeverExpand() {
    let bomb = """
      <?xml version="1.0"?>
      <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
      <d:multistatus xmlns:d="DAV:"><d:response><d:href>&lol3;</d:href></d:response></d:multistatus>
      """
    #expect(throws: SourceError.self) { try Multistatus.parse(Array(bomb.utf8)) }
    let external = """
      <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
      <d:multistatus xmlns:d="DAV:"><d:response><d:href>&x;</d:href></d:response></d:multistatus>
      """
    #expect(throws: SourceError.self) { try Multistatus.parse(Array(external.utf8)) }
  }

  @Test func malformedOrForeignRepliesAreErrors() {
    #expect(throws: SourceError.self) { try Multistatus.parse(Array("<d:multistatus xmlns:d=\"DAV:\">".utf8)) }
    #expect(throws: SourceError.self) { try Multistatus.parse(Array("<html><body>login</body></html>".utf8)) }
    #expect(throws: SourceError.self) { try Multistatus.parse(Array("{\"items\": []}".utf8)) }
  }

  @Test func albumsAndPhotosInNaturalOrderOthersSkipped() throws {
    let folder = base
    let entries = try Multistatus.parse(
      reply(
        response("/remote.php/dav/files/alice/Photos/", collection: true)
          + response("/remote.php/dav/files/alice/Photos/img10.jpg", type: "image/jpeg")
          + response("/remote.php/dav/files/alice/Photos/img9.JPG")
          + response("/remote.php/dav/files/alice/Photos/notes.txt", type: "text/plain")
          + response("/remote.php/dav/files/alice/Photos/Trip/", collection: true)
          + response("/remote.php/dav/files/alice/Photos/scan", type: "image/tiff")))
    let items = DAVListing.items(entries, folder: folder, base: base, sourceID: "webdav:NC")
    #expect(items.map { String(decoding: $0.title, as: UTF8.self) } == ["Trip", "img9.JPG", "img10.jpg", "scan"])
    #expect(items[0].isFolder && items[0].id == base + "Trip/")
    #expect(items[1].original == .remote(source: "webdav:NC", url: base + "img9.JPG"))
    #expect(items[1].thumbnail == .remote(source: "webdav:NC", url: base + "img9.JPG#picker-tui-head:%22abc%22"))
    #expect(DAVListing.file(ofHeadURL: base + "img9.JPG#picker-tui-head:%22abc%22") == base + "img9.JPG")
  }

  @Test func hrefsOutsideTheBaseAreDropped() throws {
    let entries = try Multistatus.parse(
      reply(
        response("http://127.0.0.2:8080/remote.php/dav/files/alice/Photos/evil.jpg", type: "image/jpeg")
          + response("https://127.0.0.1:8080/remote.php/dav/files/alice/Photos/scheme.jpg", type: "image/jpeg")
          + response("/etc/passwd.jpg", type: "image/jpeg")
          + response("/remote.php/dav/files/alice/Photos/../Other/x.jpg", type: "image/jpeg")
          + response("/remote.php/dav/files/alice/Photos/%2e%2e/y.jpg", type: "image/jpeg")
          + response("/remote.php/dav/files/alice/Photos/deeper/z.jpg", type: "image/jpeg")
          + response("http://127.0.0.1:8080/remote.php/dav/files/alice/Photos/ok.jpg", type: "image/jpeg")))
    let items = DAVListing.items(entries, folder: base, base: base, sourceID: "webdav:NC")
    #expect(items.map { String(decoding: $0.title, as: UTF8.self) } == ["ok.jpg"])
  }

  @Test func anHrefWithDoubledSlashesBecomesTheSameURLBelowTheBase() throws {
    // Found by fuzzing: "dav//files" is inside the base by its segments, and
    // the item's URL (its folder id) must say so too, or opening it fails.
    let entries = try Multistatus.parse(
      reply(
        response("/remote.php/dav//files/alice/Photos/Trip/", collection: true)
          + response("HTTP://127.0.0.1:8080/remote.php/dav/files/alice//Photos/a.jpg", type: "image/jpeg")))
    let items = DAVListing.items(entries, folder: base, base: base, sourceID: "s")
    #expect(items.map(\.id) == [base + "Trip/", base + "a.jpg"])
  }

  @Test func encodedNamesAreDecodedForCaptionsAndKeptForRequests() throws {
    let entries = try Multistatus.parse(
      reply(
        response("/remote.php/dav/files/alice/Photos/%C3%89t%C3%A9%20%C3%A0%20Paris.jpg", type: "image/jpeg")
          + response("/remote.php/dav/files/alice/Photos/a%2Fb.jpg", type: "image/jpeg")
          + response("/remote.php/dav/files/alice/Photos/100%25.jpg", type: "image/jpeg")))
    let items = DAVListing.items(entries, folder: base, base: base, sourceID: "webdav:NC")
    let titles = items.map { String(decoding: $0.title, as: UTF8.self) }
    #expect(Set(titles) == ["Été à Paris.jpg", "a/b.jpg", "100%.jpg"])
    let paris = try #require(items.first { $0.title == Array("Été à Paris.jpg".utf8) })
    #expect(paris.original == .remote(source: "webdav:NC", url: base + "%C3%89t%C3%A9%20%C3%A0%20Paris.jpg"))
  }

  @Test func nextcloudPreviewsWhenTheServerHasThem() throws {
    let entries = try Multistatus.parse(
      reply(
        response(
          "/remote.php/dav/files/alice/Photos/a.jpg", type: "image/jpeg",
          extra: "<oc:fileid>7</oc:fileid><nc:has-preview>true</nc:has-preview>")
          + response(
            "/remote.php/dav/files/alice/Photos/b.jpg", type: "image/jpeg",
            extra: "<oc:fileid>8</oc:fileid><nc:has-preview>false</nc:has-preview>")))
    let root = try #require(DAVListing.nextcloudRoot(of: base))
    let items = DAVListing.items(entries, folder: base, base: base, sourceID: "s", previewRoot: root)
    #expect(
      items[0].thumbnail
        == .remote(
          source: "s", url: "http://127.0.0.1:8080/index.php/core/preview?fileId=7&x=256&y=256&a=1&c=%22abc%22"))
    #expect(items[1].thumbnail == .remote(source: "s", url: base + "b.jpg#picker-tui-head:%22abc%22"))
  }

  @Test func aJPEGsFirstBytesAreEnoughWhenTheyHoldItsThumbnail() throws {
    let thumbnail = TestImages.jpeg(TestImages.quadrants(160, 120))
    let photo = TestImages.jpeg(TestImages.quadrants(1600, 1200), orientation: 6, thumbnail: thumbnail)
    let head = Array(photo.prefix(64 << 10))
    #expect(ImageDecoder.headHasUsableThumbnail(head))
    let decoded = try ImageDecoder().decode(head: head, covering: PixelSize(width: 400, height: 400))
    #expect(decoded.usedEmbeddedThumbnail && decoded.orientation == 6)
    #expect(decoded.image.height > decoded.image.width, "turned upright")
    // Without a thumbnail the head is not enough, and never decoded as the photo.
    let plain = Array(TestImages.jpeg(TestImages.quadrants(1600, 1200)).prefix(4096))
    #expect(!ImageDecoder.headHasUsableThumbnail(plain))
    #expect(throws: ImageDecodingError.self) {
      try ImageDecoder().decode(head: plain, covering: PixelSize(width: 64, height: 64))
    }
  }
}
