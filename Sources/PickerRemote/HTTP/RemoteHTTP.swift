/// The one HTTP client of the remote sources (web, WebDAV, rclone): where a
/// request goes and with which credentials, how a response's status reads
/// to the user, thumbnails (whole, or an EXIF thumbnail from a ranged read
/// of the file's first bytes) and originals downloaded into a file.
///
/// A source says only what is its own: its `endpoint` (asked again for
/// every request, as a sign-in or a restarted rclone daemon changes it) and
/// its `judge` of a response (a 401 means "sign in again" to a web source;
/// a 405 to PROPFIND "not a WebDAV folder"). Everything else is here once.
struct RemoteHTTP: Sendable {
  /// Where requests go now, and what they carry.
  struct Endpoint: Sendable {
    /// The only origin the Authorization header is sent to.
    var origin: Origin?
    var authorization: String?
    /// Listed URLs that start with `RemoteHTTP.listedBase` are sent here
    /// (rclone's daemon, on a port of its own each run); nil: as listed.
    var base: String?
    /// Told of a failure to reach the server (rclone marks its daemon gone).
    var onTransportError: @Sendable () -> Void = {}
  }

  /// "Photos": the start of every error message.
  var title: String
  /// Seconds a listing or a thumbnail may take; an original has no overall
  /// limit, only this long without a byte.
  var timeout: Double
  var maxListingBytes: Int
  var maxThumbnailBytes: Int
  /// Thumbnails from the first bytes of files (WebDAV, rclone), counted
  /// here; nil: a thumbnail URL is fetched whole (a web service's previews).
  var ranged: ThumbnailTraffic?
  var endpoint: @Sendable () throws(SourceError) -> Endpoint
  /// Throws the error a response means; returns for a success.
  var judge: @Sendable (HTTPResponse, Endpoint) throws(SourceError) -> Void

  /// Where listed URLs of a source with a moving server start: they stay
  /// the same from run to run (the thumbnail cache's key).
  static let listedBase = "http://rclone.invalid"

  // MARK: Listings

  /// One listing request to `url` (a method other than GET with `body`),
  /// judged; a transport failure reads as `unreachable(message)`, by
  /// default "Title: message" (a web source's tab names it already, so its
  /// says the host alone).
  func list(
    _ url: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8] = [],
    authorization: String?, endpoint: Endpoint,
    unreachable: ((String) -> String)? = nil
  ) async throws(SourceError) -> HTTPResponse {
    let request = listingRequest(
      rebased(url, endpoint), method: method, headers: headers, body: body, authorization: authorization,
      origin: endpoint.origin)
    let response: HTTPResponse
    do {
      response = try await HTTPClient.get(request)
    } catch {
      if error.kind == .transport { endpoint.onTransportError() }
      throw SourceError(unreachable?(error.message) ?? "\(title): \(error.message)")
    }
    try judge(response, Endpoint(origin: endpoint.origin, authorization: authorization, base: endpoint.base))
    return response
  }

  /// A listing's request (or a sign-in's probe, sent with a candidate
  /// Authorization before it is kept).
  func listingRequest(
    _ url: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8] = [],
    authorization: String?, origin: Origin?
  ) -> HTTPRequest {
    var request = HTTPRequest(
      url: url, headers: headers, authorization: authorization, credentialOrigin: origin, timeout: timeout,
      maxBytes: maxListingBytes)
    request.method = method
    request.body = body
    return request
  }

  // MARK: Pictures

  func fetchThumbnail(
    _ url: String, isCancelled: @escaping @Sendable () -> Bool, progress: (@Sendable (Int64, Int64?) -> Void)?
  ) throws(SourceError) -> LoadedImageData {
    guard let traffic = ranged else {
      return .bytes(try get(url, range: nil, isCancelled: isCancelled, progress: progress).body)
    }
    return try RangedThumbnail.fetch(url, traffic: traffic, progress: progress) {
      (file, range, progress) throws(SourceError) in
      try get(file, range: range, isCancelled: isCancelled, progress: progress)
    }
  }

  /// `url` written into `file`: originals can be large and slow, so only a
  /// stall ends it (and 2 GB).
  func download(
    _ url: String, into file: Int32, isCancelled: @escaping @Sendable () -> Bool,
    progress: @escaping @Sendable (Int64, Int64?) -> Void
  ) throws(SourceError) {
    let endpoint = try endpoint()
    let request = HTTPRequest(
      url: rebased(url, endpoint), authorization: endpoint.authorization, credentialOrigin: endpoint.origin,
      timeout: 0, stallTimeout: timeout, maxBytes: 2 << 30)
    try judge(perform(request, endpoint, into: file, isCancelled: isCancelled, progress: progress), endpoint)
  }

  /// At most `maxThumbnailBytes` of `url`; with `range`, only its first bytes.
  private func get(
    _ url: String, range: Int?, isCancelled: @escaping @Sendable () -> Bool,
    progress: (@Sendable (Int64, Int64?) -> Void)?
  ) throws(SourceError) -> HTTPResponse {
    let endpoint = try endpoint()
    var request = HTTPRequest(
      url: rebased(url, endpoint), authorization: endpoint.authorization, credentialOrigin: endpoint.origin,
      timeout: timeout, maxBytes: maxThumbnailBytes)
    if let range { request.headers["Range"] = "bytes=0-\(range - 1)" }
    let response = try perform(request, endpoint, into: nil, isCancelled: isCancelled, progress: progress)
    try judge(response, endpoint)
    return response
  }

  private func perform(
    _ request: HTTPRequest, _ endpoint: Endpoint, into file: Int32?, isCancelled: @escaping @Sendable () -> Bool,
    progress: (@Sendable (Int64, Int64?) -> Void)?
  ) throws(SourceError) -> HTTPResponse {
    do {
      return try HTTPClient.get(request, into: file, progress: progress, isCancelled: isCancelled)
    } catch {
      if error.kind == .transport { endpoint.onTransportError() }
      throw SourceError("\(title): \(error.message)")
    }
  }

  /// `url`'s path and fragment on the endpoint's base (scheme, host and
  /// port) when it was listed at `listedBase`.
  func rebased(_ url: String, _ endpoint: Endpoint) -> String {
    guard let base = endpoint.base else { return url }
    return Self.rebased(url, on: base)
  }

  static func rebased(_ url: String, on base: String) -> String {
    guard url.hasPrefix(listedBase), let schemeEnd = url.range(of: "://"),
      let pathStart = url[schemeEnd.upperBound...].firstIndex(of: "/")
    else { return url }
    return base + url[pathStart...]
  }
}

extension RemoteHTTP {
  /// The judge of a service behind a sign-in (web, WebDAV): a 401 is the
  /// sign-in's to read, other failures in the source's words, where
  /// `wording` may name a status of its own.
  static func signedInJudge(
    _ signIn: SignIn, title: String, wording: @escaping @Sendable (Int) -> String? = { _ in nil }
  ) -> @Sendable (HTTPResponse, Endpoint) throws(SourceError) -> Void {
    { (response, endpoint) throws(SourceError) in
      try signIn.checkUnauthorized(response, sent: endpoint.authorization)
      let status = response.status
      if (200..<300).contains(status) { return }
      if let words = wording(status) { throw SourceError("\(title): \(words)") }
      throw SourceError(
        status == 404 ? "\(title): not found (HTTP 404)" : "\(title): server error (HTTP \(status))")
    }
  }
}
