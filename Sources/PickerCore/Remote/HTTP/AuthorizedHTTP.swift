/// The blocking GETs of pictures that remote sources share: a thumbnail
/// (or its first bytes, for an EXIF thumbnail) and an original downloaded
/// into a file. The request carries the source's credentials, bound to its
/// origin (a redirect elsewhere drops them); a transport error is told in
/// the source's words. The caller judges the response's status, as only
/// it knows what a 401 means for it (sign in again) or a 404.
struct AuthorizedHTTP {
  var origin: Origin?
  var authorization: String?
  /// Seconds a thumbnail may take; an original has no overall limit, only
  /// this long without a byte.
  var timeout: Double
  /// How an error reads to the user ("Photos: timed out").
  var describe: @Sendable (String) -> String = { $0 }
  /// Told of a failure to reach the server (rclone marks its daemon gone).
  var onTransportError: @Sendable () -> Void = {}

  /// At most `maxBytes` of `url`; with `range`, only its first bytes.
  func get(
    _ url: String, range: Int? = nil, maxBytes: Int, isCancelled: @escaping @Sendable () -> Bool,
    progress: (@Sendable (Int64, Int64?) -> Void)?
  ) throws(SourceError) -> HTTPResponse {
    var request = HTTPRequest(
      url: url, authorization: authorization, credentialOrigin: origin, timeout: timeout, maxBytes: maxBytes)
    if let range { request.headers["Range"] = "bytes=0-\(range - 1)" }
    return try perform(request, into: nil, isCancelled: isCancelled, progress: progress)
  }

  /// `url` written into `file`: originals can be large and slow, so only a
  /// stall ends it (and 2 GB).
  func download(
    _ url: String, into file: Int32, isCancelled: @escaping @Sendable () -> Bool,
    progress: @escaping @Sendable (Int64, Int64?) -> Void
  ) throws(SourceError) -> HTTPResponse {
    let request = HTTPRequest(
      url: url, authorization: authorization, credentialOrigin: origin, timeout: 0, stallTimeout: timeout,
      maxBytes: 2 << 30)
    return try perform(request, into: file, isCancelled: isCancelled, progress: progress)
  }

  private func perform(
    _ request: HTTPRequest, into file: Int32?, isCancelled: @escaping @Sendable () -> Bool,
    progress: (@Sendable (Int64, Int64?) -> Void)?
  ) throws(SourceError) -> HTTPResponse {
    do {
      return try HTTPClient.get(request, into: file, progress: progress, isCancelled: isCancelled)
    } catch {
      if error.kind == .transport { onTransportError() }
      throw SourceError(describe(error.message))
    }
  }
}
