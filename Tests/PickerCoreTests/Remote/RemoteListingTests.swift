import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct RemoteListingTests {
  func page(_ json: String, base: String? = "http://h:1/api") throws -> Page {
    let value = try #require(JSONValue.parse(Array(json.utf8)))
    return try RemoteListing.page(from: value, sourceID: "web:S", base: base)
  }

  @Test func relativeURLsResolveBelowTheBase() throws {
    let page = try page(
      #"{"items":[{"id":"1","title":"Beach","thumbnail_url":"thumbs/1.png","url":"/originals/1.png"}],"has_more":true,"total":9}"#
    )
    let item = try #require(page.items.first)
    #expect(item.kind == .photo)
    #expect(item.title == Array("Beach".utf8))
    #expect(item.thumbnail == .remote(source: "web:S", url: "http://h:1/api/thumbs/1.png"))
    #expect(item.original == .remote(source: "web:S", url: "http://h:1/originals/1.png"))
    #expect(item.outputPath == nil)
    #expect(page.hasMore)
    #expect(page.total == 9)
  }

  @Test func absoluteURLsAreKept() throws {
    let page = try page(
      #"{"items":[{"id":"1","thumbnail_url":"https://cdn.example/t.png","url":"custom://x/1"}]}"#)
    let item = try #require(page.items.first)
    #expect(item.thumbnail == .remote(source: "web:S", url: "https://cdn.example/t.png"))
    #expect(item.original == .remote(source: "web:S", url: "custom://x/1"))
    #expect(item.title == Array("1".utf8), "the id stands in for a missing title")
    #expect(!page.hasMore)
    #expect(page.total == nil)
  }

  @Test func albumsAreFolders() throws {
    let page = try page(
      #"{"items":[{"id":"a1","kind":"album","title":"Trip","count":12,"thumbnail_url":"thumbs/c.png"},{"id":"f","kind":"folder"}]}"#
    )
    #expect(page.items.count == 2)
    #expect(page.items[0].kind == .folder(count: 12))
    #expect(page.items[0].isFolder)
    #expect(page.items[0].thumbnail == .remote(source: "web:S", url: "http://h:1/api/thumbs/c.png"))
    #expect(page.items[1].kind == .folder(count: nil))
    #expect(!page.items[0].isPickable)
  }

  @Test func aPathIsALocalFile() throws {
    let page = try page(#"{"items":[{"id":"p","path":"/photos/a b.jpg"}]}"#, base: nil)
    let item = try #require(page.items.first)
    #expect(item.outputPath == PathBytes("/photos/a b.jpg"))
    #expect(item.original == .file(PathBytes("/photos/a b.jpg")))
    #expect(item.thumbnail == .file(PathBytes("/photos/a b.jpg")))
    #expect(item.pickedOutput == .local(PathBytes("/photos/a b.jpg")))
  }

  @Test func itemsWithoutAnIDOrOfAnUnknownKindAreSkipped() throws {
    let page = try page(
      #"""
      {"items":[{"title":"no id","url":"a.png"},{"id":"","url":"b.png"},{"id":"v","kind":"video","url":"v.mp4"},
        {"id":"n","title":"nothing to show"},"not an object",{"id":"ok","url":"ok.png"}],"total":-3}
      """#)
    #expect(page.items.map(\.id) == ["ok"])
    #expect(page.total == nil, "a negative total is ignored")
  }

  @Test func numericIDsAreAccepted() throws {
    let page = try page(#"{"items":[{"id":42,"url":"42.png"},{"id":4.5,"url":"x.png"}]}"#)
    #expect(page.items.map(\.id) == ["42"])
  }

  @Test(arguments: [#"{"photos":[]}"#, #"{"items":{}}"#, #"[]"#, #""items""#])
  func aResponseWithoutItemsIsAnError(json: String) {
    #expect(throws: SourceError.self) { try page(json) }
  }

  /// A listing filtered on the service's side: underlying items 0..<100,
  /// only those in `kept` are answered, in windows of `limit`.
  func filtered(_ kept: Set<Int>, saysNextOffset: Bool = false) -> (Int, Int) throws -> Page {
    { offset, limit in
      let window = offset..<min(100, offset + limit)
      let items = window.filter(kept.contains).map { PhotoItem(id: "\($0)", kind: .photo, title: []) }
      var page = Page(items: items, hasMore: window.upperBound < 100)
      if saysNextOffset { page.nextOffset = window.upperBound }
      return page
    }
  }

  @Test(arguments: [false, true]) func emptyPagesThatSayMoreFollowAreAskedPast(_ saysNextOffset: Bool) async throws {
    let source = filtered([35, 36, 90], saysNextOffset: saysNextOffset)
    var asked: [Int] = []
    let request = PageRequest(offset: 0, limit: 10)
    let page = try await RemoteListing.skippingEmptyPages(request, title: "S") { offset in
      asked.append(offset)
      return try source(offset, 10)
    }
    #expect(asked == [0, 10, 20, 30])
    #expect(page.items.map(\.id) == ["35", "36"] && page.hasMore)
    // The next page starts after the window the items came from.
    #expect(page.nextOffset == (saysNextOffset ? 40 : 32))
  }

  @Test func aSourceAnsweringOnlyEmptyPagesIsNotAskedForever() async throws {
    var asked = 0
    let page = try await RemoteListing.skippingEmptyPages(PageRequest(offset: 0, limit: 10), title: "S") { _ in
      asked += 1
      return Page(items: [], hasMore: true)
    }
    #expect(asked == RemoteListing.emptyPageLimit)
    #expect(page.items.isEmpty && !page.hasMore && page.note?.contains("empty pages") == true)
  }

  @Test func aPageRightAfterTheLastSaysNoNextOffset() async throws {
    let page = try await RemoteListing.skippingEmptyPages(PageRequest(offset: 5, limit: 10), title: "S") { offset in
      Page(items: [PhotoItem(id: "a", kind: .photo, title: [])], hasMore: true)
    }
    #expect(page.nextOffset == nil)
  }

  @Test func resolving() {
    #expect(URLResolver.resolve("thumbs/1.png", against: "http://h:1/api") == "http://h:1/api/thumbs/1.png")
    #expect(URLResolver.resolve("thumbs/1.png", against: "http://h:1/api/") == "http://h:1/api/thumbs/1.png")
    #expect(URLResolver.resolve("../x.png", against: "http://h:1/api/v2") == "http://h:1/api/x.png")
    #expect(URLResolver.resolve("//cdn.example/x.png", against: "https://h/api") == "https://cdn.example/x.png")
    #expect(URLResolver.resolve("HTTP://Other/x", against: "http://h/api") == "HTTP://Other/x")
  }

  @Test func originsCompareSchemeHostAndPort() throws {
    #expect(Origin("http://Example.COM/a") == Origin("http://example.com:80/b"))
    #expect(Origin("HTTPS://example.com") == Origin("https://example.com:443/"))
    #expect(Origin("http://example.com") != Origin("https://example.com"))
    #expect(Origin("http://example.com:8080") != Origin("http://example.com"))
    #expect(Origin("http://127.0.0.1:5/api") != Origin("http://localhost:5/api"))
    #expect(Origin("ftp://example.com") == nil)
    #expect(Origin("not a url") == nil)
    #expect(Origin("http://") == nil)
    let origin = try #require(Origin("https://user:pw@Photos.example:8443/api?q=1"))
    #expect(origin.description == "https://photos.example:8443")
  }

  @Test func isHTTP() {
    #expect(URLResolver.isHTTP("http://h/x"))
    #expect(URLResolver.isHTTP("HTTPS://h/x"))
    #expect(!URLResolver.isHTTP("httpx://h"))
    #expect(!URLResolver.isHTTP("http:/h"))
    #expect(!URLResolver.isHTTP("folder-source://thumb/a.png"))
    #expect(!URLResolver.isHTTP("thumbs/1.png"))
  }
}
