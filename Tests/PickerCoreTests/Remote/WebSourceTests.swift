import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// WebSource against Tests/Servers/photo_server.py: 2 albums of 3 photos
/// and 5 root photos, behind the token "secret".
@Suite(.timeLimit(.minutes(1))) struct WebSourceTests {
  struct Setup {
    let server: PhotoServer
    let folder = ScratchFolder()
    let store: CredentialStore

    init(environment: [String: String] = [:]) throws {
      server = try PhotoServer(["--token", "secret", "--photos", "5", "--albums", "2", "--album-photos", "3"])
      store = CredentialStore(folder: folder.path + "/credentials", environment: environment)
    }

    /// 30 s: only the tests of timeouts want a short one; the rest share
    /// two threads with hundreds of other tests and may wait their turn.
    func source(timeout: Double = 30, url: String? = nil) -> WebSource {
      WebSource(title: "Stock", url: url ?? server.url(), auth: .token, timeout: timeout, credentials: store)
    }

    func signedIn(timeout: Double = 30) async throws -> WebSource {
      let source = source(timeout: timeout)
      try await source.authenticate(["token": "secret"])
      return source
    }

    /// Expected bytes, from the server's own image functions.
    func serverBytes(_ call: String) -> [UInt8] {
      Python.output(
        "import sys; sys.path.insert(0, '\(projectRoot)/Tests/Servers'); import photo_server as s; "
          + "sys.stdout.buffer.write(s.\(call))")
    }
  }

  static let first = PageRequest(offset: 0, limit: 4)

  @Test func escapingKeepsOnlyUnreservedCharactersAsFoundationWould() {
    var allowed = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
    allowed.insert(charactersIn: "-._~")
    let texts = [
      "", "plain", "Été à Paris.jpg", "100%", "a/b c", "[dropbox:Camera Uploads]", "~-._", "\u{0}\u{7F}\u{1F600}",
      "ÿ", "+&=?#",
    ]
    for text in texts {
      #expect(WebSource.escape(text) == text.addingPercentEncoding(withAllowedCharacters: allowed), "\(text)")
    }
  }

  @Test func withoutCredentialsNothingIsRequested() async throws {
    let setup = try Setup()
    let source = setup.source()
    #expect(source.capabilities.contains(.auth))
    #expect(await source.authStatus() == .signedOut)
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    let prompt = try #require(error.signIn)
    #expect(prompt.fields.map(\.name) == ["token"])
    #expect(prompt.fields.first?.isSecret == true)
    #expect(setup.server.requests().isEmpty)
  }

  @Test func aWrongTokenIsRefused() async throws {
    let setup = try Setup()
    let source = setup.source()
    let error = try #require(await sourceError { try await source.authenticate(["token": "wrong"]) })
    #expect(error.message.contains("refused"))
    #expect(await sourceError { try await source.authenticate([:]) } != nil)
    #expect(!FileManager.default.fileExists(atPath: setup.store.path(for: "Stock")))
    #expect(await sourceError { _ = try await source.items(in: nil, page: Self.first) }?.signIn != nil)
  }

  @Test func pagesAlbumsAndSearch() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    #expect(await source.authStatus() == .signedIn)

    let root = try await source.items(in: nil, page: Self.first)
    #expect(root.items.map(\.id) == ["album-1", "album-2", "photo-1", "photo-2"])
    #expect(root.items.map(\.isFolder) == [true, true, false, false])
    #expect(root.hasMore)
    #expect(root.total == 7)
    let base = setup.server.url()
    #expect(root.items[2].thumbnail == .remote(source: "web:Stock", url: base + "/thumbs/photo-1.png"))
    #expect(root.items[2].pickedOutput == .remote(source: "web:Stock", url: base + "/originals/photo-1.png"))

    let rest = try await source.items(in: nil, page: PageRequest(offset: 4, limit: 4))
    #expect(rest.items.map(\.id) == ["photo-3", "photo-4", "photo-5"])
    #expect(!rest.hasMore)

    let album = try await source.items(in: "album-2", page: Self.first)
    #expect(album.items.map(\.id) == ["album-2-photo-1", "album-2-photo-2", "album-2-photo-3"])
    #expect(album.items.map { String(decoding: $0.title, as: UTF8.self) } == ["Beach 1", "Forest 2", "City 3"])

    let found = try await source.search("forest", in: nil, page: Self.first)
    #expect(found.items.map(\.id) == ["photo-2", "album-1-photo-2", "album-2-photo-2"])

    let requests = setup.server.requests()
    #expect(requests.map(\.path).contains("/api/search?q=forest&offset=0&limit=4"))
    #expect(requests.allSatisfy { $0.headers["Authorization"] == "Bearer secret" })
  }

  @Test func idsAndQueriesCannotAddPathsOrParameters() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    let error = try #require(await sourceError { _ = try await source.items(in: "../me", page: Self.first) })
    #expect(error.message.contains("404"))
    _ = try await source.search("a&limit=999 b", in: nil, page: Self.first)
    let paths = setup.server.requests().map(\.path)
    #expect(paths.contains("/api/albums/..%2Fme/photos?offset=0&limit=4"))
    #expect(paths.contains("/api/search?q=a%26limit%3D999%20b&offset=0&limit=4"))
  }

  @Test func signingInSavesPrivateCredentialsForTheNextSource() async throws {
    let setup = try Setup()
    _ = try await setup.signedIn()
    let file = setup.store.path(for: "Stock")
    #expect(permissions(file) == 0o600)
    #expect(permissions(setup.store.folder) == 0o700)
    #expect(setup.store.answers(for: "Stock") == ["token": "secret"])

    let next = setup.source()
    #expect(await next.authStatus() == .signedIn)
    #expect(try await next.items(in: nil, page: Self.first).items.count == 4)

    await next.signOut()
    #expect(!FileManager.default.fileExists(atPath: file))
    #expect(await sourceError { _ = try await next.items(in: nil, page: Self.first) }?.signIn != nil)
  }

  @Test func theEnvironmentTokenWinsAndIsNeverWritten() async throws {
    let setup = try Setup(environment: ["PICKER_TUI_STOCK_TOKEN": "secret"])
    try setup.store.save(["token": "stale"], for: "Stock")
    let source = setup.source()
    #expect(try await source.items(in: nil, page: Self.first).total == 7)
    #expect(setup.server.requests().last?.headers["Authorization"] == "Bearer secret")
    #expect(setup.store.answers(for: "Stock") == ["token": "stale"])
  }

  @Test func aServerErrorNamesTheStatus() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    setup.server.control(["fault": "error500"])
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("500"))
    #expect(error.signIn == nil)
  }

  @Test func malformedJSON() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    setup.server.control(["fault": "malformed"])
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("malformed"))
  }

  @Test func aHugeAnswerIsCutShort() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    setup.server.control(["fault": "huge", "huge_mb": 200])
    let started = Date()
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("larger than"))
    // Loose, for a loaded machine: what is asserted is the cut, above.
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test func aRevokedTokenAsksToSignInAgain() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    setup.server.control(["token": "other"])
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.signIn != nil)
    let count = setup.server.requests().count
    // Signed out now: the next load asks again without a request.
    #expect(await sourceError { _ = try await source.items(in: nil, page: Self.first) }?.signIn != nil)
    #expect(setup.server.requests().count == count)
    try await source.authenticate(["token": "other"])
    #expect(try await source.items(in: nil, page: Self.first).items.count == 4)
  }

  @Test func aSlowServerTimesOut() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn(timeout: 1)
    setup.server.control(["delay": 3])
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("timed out"))
  }

  @Test func aRedirectToAnotherOriginCarriesNoCredentials() async throws {
    let setup = try Setup()
    let other = try PhotoServer(["--photos", "5", "--albums", "2", "--album-photos", "3"])
    let source = try await setup.signedIn()
    setup.server.control(["fault": "redirect", "redirect_to": "http://localhost:\(other.port)"])
    let page = try await source.items(in: nil, page: Self.first)
    #expect(page.items.count == 4)
    let first = try #require(setup.server.requests().last)
    #expect(first.path == "/api/photos?offset=0&limit=4")
    #expect(first.headers["Authorization"] == "Bearer secret")
    let arrived = other.requests()
    #expect(arrived.map(\.path) == ["/api/photos?offset=0&limit=4"])
    #expect(arrived.allSatisfy { !$0.headers.keys.contains { $0.lowercased() == "authorization" } })
  }

  @Test func thumbnailsOnAnotherOriginCarryNoCredentials() async throws {
    let setup = try Setup()
    let cdn = try PhotoServer(["--photos", "5"])
    let source = try await setup.signedIn()
    let url = cdn.url(host: "localhost") + "/thumbs/photo-2.png"
    guard case .bytes(let bytes) = try source.fetchThumbnail(url, isCancelled: { false }) else {
      Issue.record("a web thumbnail comes as bytes")
      return
    }
    #expect(bytes == setup.serverBytes("thumbnail_bytes('photo-2')"))
    let arrived = cdn.requests()
    #expect(arrived.map(\.path) == ["/api/thumbs/photo-2.png"])
    #expect(arrived.allSatisfy { !$0.headers.keys.contains { $0.lowercased() == "authorization" } })
  }

  @Test func aTokenNeverReachesAnotherSourcesServer() async throws {
    let setup = try Setup()
    let other = try PhotoServer(["--token", "other-secret"])
    // Two names the config accepts as different sources.
    let stock = WebSource(title: "My Stock", url: setup.server.url(), auth: .token, credentials: setup.store)
    try await stock.authenticate(["token": "secret"])
    let archive = WebSource(title: "My-Stock", url: other.url(), auth: .token, credentials: setup.store)
    #expect(await archive.authStatus() == .signedOut)
    #expect(other.requests().allSatisfy { $0.headers["Authorization"] != "Bearer secret" })
  }

  @Test func aServerThatIsDown() async throws {
    let setup = try Setup(environment: ["PICKER_TUI_STOCK_TOKEN": "secret"])
    let source = setup.source(url: "http://127.0.0.1:\(LoopbackHTTP.unusedPort())/api")
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("cannot connect"))
  }

  @Test func thumbnailsAreTheServersBytes() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    let page = try await source.items(in: nil, page: Self.first)
    guard case .remote(_, let url)? = page.items[2].thumbnail else {
      Issue.record("no remote thumbnail")
      return
    }
    guard case .bytes(let bytes) = try source.fetchThumbnail(url, isCancelled: { false }) else {
      Issue.record("a web thumbnail comes as bytes")
      return
    }
    #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(bytes == setup.serverBytes("thumbnail_bytes('photo-1')"))

    let missing = try #require(await sourceError { _ = try source.fetchThumbnail(url + "x", isCancelled: { false }) })
    #expect(missing.message.contains("404"))
  }

  @Test func downloadsAreTheServersBytes() async throws {
    let setup = try Setup()
    let source = try await setup.signedIn()
    let file = DownloadFile(in: setup.folder.url)
    let progress = ProgressLog()
    try source.download(
      setup.server.url() + "/originals/photo-3.png", into: file.descriptor, progress: progress.record,
      isCancelled: { false })
    let bytes = file.contents()
    #expect(bytes == setup.serverBytes("original_bytes('photo-3', 640, 480)"))
    #expect(progress.last?.received == Int64(bytes.count))
  }
}
