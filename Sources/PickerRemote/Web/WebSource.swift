import Foundation

/// A photo service that speaks the picker's HTTP JSON contract:
///
///     GET {url}/photos?offset=O&limit=L                root ("trending")
///     GET {url}/albums/{id}/photos?offset=O&limit=L    an album
///     GET {url}/search?q=Q&offset=O&limit=L            search
///     GET {url}/me                                      200 signed in, 401 not
///
/// The Authorization header goes to the service's own origin only, never to
/// a host a redirect or a thumbnail URL points at. A 401 anywhere asks the
/// user to sign in again.
public final class WebSource: PhotoSource, RemoteImageSource, @unchecked Sendable {
  public let id: String
  public let title: String
  public let baseURL: String
  public let auth: WebAuthKind
  /// Seconds a listing may take.
  public let timeout: Double
  private let signIn: SignIn
  private let http: RemoteHTTP

  public static let maxListingBytes = 16 << 20
  public static let maxThumbnailBytes = 32 << 20

  public init(title: String, url: String, auth: WebAuthKind, timeout: Double = 30, credentials: CredentialStore) {
    self.id = "web:" + title
    self.title = title
    self.baseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
    self.auth = auth
    self.timeout = timeout
    let signIn = SignIn(title: title, url: url, auth: auth, credentials: credentials)
    self.signIn = signIn
    self.http = RemoteHTTP(
      title: title, timeout: timeout, maxListingBytes: Self.maxListingBytes, maxThumbnailBytes: Self.maxThumbnailBytes,
      ranged: nil, endpoint: { RemoteHTTP.Endpoint(origin: signIn.origin, authorization: signIn.current) },
      judge: RemoteHTTP.signedInJudge(signIn, title: title))
  }

  public var icon: String { "☁" }
  public var capabilities: SourceCapabilities {
    auth == .none ? [.paging, .search, .albums] : [.paging, .search, .albums, .auth]
  }
  public var authPrompt: AuthPrompt? { signIn.prompt }

  private var currentAuthorization: String? { signIn.current }

  public func authStatus() async -> AuthStatus {
    guard auth != .none else { return .signedIn }
    guard let authorization = currentAuthorization else { return .signedOut }
    let response = try? await HTTPClient.get(me(authorization: authorization))
    return response?.status == 200 ? .signedIn : .signedOut
  }

  public func authenticate(_ answers: [String: String]) async throws {
    try await signIn.attempt(answers) { (candidate) async throws(HTTPError) in
      try await HTTPClient.get(me(authorization: candidate))
    }
  }

  public func signOut() async { signIn.signOut() }

  public func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    let path = folder.map { "albums/\(Self.escape($0))/photos" } ?? "photos"
    return try await RemoteListing.skippingEmptyPages(page, title: title) { offset in
      try await list(path + "?offset=\(offset)&limit=\(page.limit)")
    }
  }

  public func search(_ query: String, in folder: FolderID?, page: PageRequest) async throws -> Page {
    try await RemoteListing.skippingEmptyPages(page, title: title) { offset in
      try await list("search?q=\(Self.escape(query))&offset=\(offset)&limit=\(page.limit)")
    }
  }

  private func list(_ pathAndQuery: String) async throws(SourceError) -> Page {
    let authorization = try signIn.required()
    let response = try await http.list(
      baseURL + "/" + pathAndQuery, headers: ["Accept": "application/json"], authorization: authorization,
      endpoint: try http.endpoint(), unreachable: { $0 })
    guard let json = JSONValue.parse(response.body) else {
      throw SourceError("\(title) sent malformed JSON")
    }
    do {
      return try RemoteListing.page(from: json, sourceID: id, base: baseURL)
    } catch {
      throw SourceError("\(title): \(error.message)")
    }
  }

  /// The sign-in's probe: GET /me with a candidate Authorization.
  private func me(authorization: String) -> HTTPRequest {
    http.listingRequest(
      baseURL + "/me", headers: ["Accept": "application/json"], authorization: authorization, origin: signIn.origin)
  }

  /// Path segments and query values: everything but unreserved characters
  /// escaped, so an id or a query cannot add path segments or parameters.
  static func escape(_ text: String) -> String {
    // Byte by byte: Foundation's addingPercentEncoding builds a character
    // set bitmap on every call, a third of listing 10,000 rclone entries.
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.append(byte)
      default:
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: Images

  public func fetchThumbnail(
    _ url: String, isCancelled: @escaping @Sendable () -> Bool, progress: (@Sendable (Int64, Int64?) -> Void)? = nil
  ) throws(SourceError) -> LoadedImageData {
    try http.fetchThumbnail(url, isCancelled: isCancelled, progress: progress)
  }

  public func download(
    _ url: String, into file: Int32, progress: @escaping @Sendable (Int64, Int64?) -> Void,
    isCancelled: @escaping @Sendable () -> Bool
  ) throws(SourceError) {
    try http.download(url, into: file, isCancelled: isCancelled, progress: progress)
  }
}
