import Foundation

/// A WebDAV folder (Nextcloud, ownCloud, a NAS, Apache mod_dav, rclone
/// serve webdav): sub-folders are albums, images are photos.
///
/// One PROPFIND (Depth: 1) lists a folder; the picker pages over that
/// listing itself, kept for the session. A tile's thumbnail is Nextcloud's
/// server-side preview when the server has one, else the EXIF thumbnail in
/// the file's first bytes (a ranged GET, widened once), else the whole file.
/// Sign-in, the credentials store and the origin rule are the web source's:
/// the Authorization header never leaves the base URL's origin.
public final class WebDAVSource: PhotoSource, RemoteImageSource, @unchecked Sendable {
  public let id: String
  public let title: String
  public let baseURL: String
  public let auth: WebAuthKind
  public let timeout: Double
  private let previewRoot: String?
  private let signIn: SignIn
  private let http: RemoteHTTP
  private let lock = NSLock()
  /// Folder URL → its items, for paging without asking again.
  private var listings: [String: [PhotoItem]] = [:]

  /// A listing past this is an error (a 10,000-photo folder is ~6 MB).
  public static let maxListingBytes = 64 << 20
  public static let maxThumbnailBytes = 64 << 20

  public init(title: String, url: String, auth: WebAuthKind, timeout: Double = 30, credentials: CredentialStore) {
    self.id = "webdav:" + title
    self.title = title
    self.baseURL = url.hasSuffix("/") ? url : url + "/"
    self.auth = auth
    self.timeout = timeout
    self.previewRoot = DAVListing.nextcloudRoot(of: url)
    let signIn = SignIn(title: title, url: url, auth: auth, credentials: credentials)
    let thumbnailTraffic = ThumbnailTraffic()
    self.signIn = signIn
    self.thumbnailTraffic = thumbnailTraffic
    self.http = RemoteHTTP(
      title: title, timeout: timeout, maxListingBytes: Self.maxListingBytes, maxThumbnailBytes: Self.maxThumbnailBytes,
      ranged: thumbnailTraffic, endpoint: { RemoteHTTP.Endpoint(origin: signIn.origin, authorization: signIn.current) },
      judge: RemoteHTTP.signedInJudge(signIn, title: title) { status in
        switch status {
        case 403: "access refused (HTTP 403)"
        case 405, 501: "not a WebDAV folder (HTTP \(status) to PROPFIND)"
        default: nil
        }
      })
  }

  public var icon: String { "☁" }
  public var capabilities: SourceCapabilities { auth == .none ? [.paging, .albums] : [.paging, .albums, .auth] }
  public var authPrompt: AuthPrompt? { signIn.prompt }
  /// Bytes its thumbnails cost, ranged reads on or off (the benchmark).
  public let thumbnailTraffic: ThumbnailTraffic

  /// Signs in for this run only, without asking the server or saving
  /// anything (the benchmark's --basic).
  public func useCredentials(user: String, password: String) throws(SourceError) {
    guard let value = auth.authorization(["user": user, "password": password]) else {
      throw SourceError("this source does not take a user and a password")
    }
    signIn.use(value)
  }

  private var currentAuthorization: String? { signIn.current }

  public func authStatus() async -> AuthStatus {
    guard auth != .none else { return .signedIn }
    guard let authorization = currentAuthorization else { return .signedOut }
    let response = try? await HTTPClient.get(probe(authorization: authorization))
    return (200..<300).contains(response?.status ?? 0) ? .signedIn : .signedOut
  }

  public func authenticate(_ answers: [String: String]) async throws {
    try await signIn.attempt(answers) { (candidate) async throws(HTTPError) in
      try await HTTPClient.get(probe(authorization: candidate))
    }
  }

  public func signOut() async {
    lock.withLock { listings = [:] }
    signIn.signOut()
  }

  public func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    let url = folder ?? baseURL
    // Folder ids are URLs this source made; anything else is refused.
    guard url.hasPrefix(baseURL) else { throw SourceError("\(title): not a folder of this source") }
    let cached = lock.withLock { page.offset == 0 ? nil : listings[url] }
    let items: [PhotoItem]
    if let cached {
      items = cached
    } else {
      items = try await list(url)
      lock.withLock { listings[url] = items }
    }
    let (slice, hasMore) = items.page(page)
    return Page(items: Array(slice), hasMore: hasMore, total: items.count)
  }

  private func list(_ folder: String) async throws(SourceError) -> [PhotoItem] {
    let authorization = try signIn.required()
    let response = try await http.list(
      folder, method: "PROPFIND", headers: Self.propfindHeaders(depth: 1), body: Multistatus.propfindBody,
      authorization: authorization, endpoint: try http.endpoint())
    let entries: [DAVEntry]
    do {
      entries = try Multistatus.parse(response.body)
    } catch {
      throw SourceError("\(title): \(error.message)")
    }
    return DAVListing.items(entries, folder: folder, base: baseURL, sourceID: id, previewRoot: previewRoot)
  }

  private static func propfindHeaders(depth: Int) -> [String: String] {
    ["Depth": String(depth), "Content-Type": "application/xml; charset=utf-8"]
  }

  /// The sign-in's probe: PROPFIND (Depth: 0) of the base URL.
  private func probe(authorization: String) -> HTTPRequest {
    http.listingRequest(
      baseURL, method: "PROPFIND", headers: Self.propfindHeaders(depth: 0), body: Multistatus.propfindBody,
      authorization: authorization, origin: signIn.origin)
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
