import CNetworking
import Foundation

/// One request to make: a GET, or another method with a body.
public struct HTTPRequest: Sendable {
  public var url: String
  public var method = "GET"
  /// Sent with a method other than GET.
  public var body: [UInt8] = []
  /// Sent on every hop (Accept and the like; never credentials).
  public var headers: [String: String]
  /// An Authorization value, sent only while the URL is on `credentialOrigin`.
  public var authorization: String?
  public var credentialOrigin: Origin?
  /// The whole transfer, seconds; 0 for no limit (downloads use the stall limit).
  public var timeout: Double
  /// Give up when nothing arrives for this long, seconds.
  public var stallTimeout: Double
  public var maxBytes: Int

  public init(
    url: String, headers: [String: String] = [:], authorization: String? = nil, credentialOrigin: Origin? = nil,
    timeout: Double = 30, stallTimeout: Double = 15, maxBytes: Int = 16 << 20
  ) {
    self.url = url
    self.headers = headers
    self.authorization = authorization
    self.credentialOrigin = credentialOrigin
    self.timeout = timeout
    self.stallTimeout = stallTimeout
    self.maxBytes = maxBytes
  }
}

public struct HTTPResponse: Sendable {
  public var status: Int
  /// Empty when the body went to a file.
  public var body: [UInt8]
  public var contentType: String?
  /// The absolute target of a 3xx.
  public var location: String?
  /// Where the response came from, after redirects.
  public var url: String
}

public struct HTTPError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable { case transport, tooLarge, cancelled, redirects }
  public var kind: Kind
  public var message: String
  public var description: String { message }
}

/// Blocking GETs through libcurl, following redirects itself so that the
/// Authorization header goes to the credential's origin only. Call from a
/// thread that may block (pipeline network workers, download threads); the
/// async variant gives each request its own thread.
public enum HTTPClient {
  public static let maxRedirects = 5
  /// Off: a new connection for every transfer (benchmarks compare).
  public static func setConnectionReuse(_ reuse: Bool) { pk_http_set_connection_reuse(reuse ? 1 : 0) }

  private static let initialized: Bool = {
    pk_http_global_init()
    return true
  }()

  /// Performs `request`; the body goes to `file` when given (truncated on
  /// each redirect hop). `progress` is told bytes received and expected.
  public static func get(
    _ request: HTTPRequest, into file: Int32? = nil, progress: (@Sendable (Int64, Int64?) -> Void)? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(HTTPError) -> HTTPResponse {
    _ = initialized
    var url = request.url
    for _ in 0...maxRedirects {
      if let file {
        _ = ftruncate(file, 0)
        _ = lseek(file, 0, SEEK_SET)
      }
      let response = try perform(request, url: url, file: file, progress: progress, isCancelled: isCancelled)
      guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
      guard let next = response.location, URLResolver.isHTTP(next) else {
        throw HTTPError(kind: .transport, message: "redirect without a usable Location (HTTP \(response.status))")
      }
      url = next
    }
    throw HTTPError(kind: .redirects, message: "too many redirects")
  }

  /// The same on a thread of its own; cancelling the task stops the transfer.
  public static func get(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let flag = CancellationFlag()
    let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let thread = Thread {
          do throws(HTTPError) {
            continuation.resume(returning: .success(try get(request, isCancelled: { flag.isSet })))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
        thread.name = "http"
        thread.start()
      }
    } onCancel: {
      flag.set()
    }
    return try result.get()
  }

  /// One hop; a 3xx comes back as it is, with its Location.
  private static func perform(
    _ request: HTTPRequest, url: String, file: Int32?, progress: (@Sendable (Int64, Int64?) -> Void)?,
    isCancelled: @escaping @Sendable () -> Bool
  ) throws(HTTPError) -> HTTPResponse {
    var lines = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    if let authorization = request.authorization, let origin = request.credentialOrigin, Origin(url) == origin {
      lines.append("Authorization: \(authorization)")
    }
    // libcurl adds "Expect:" and the like on its own; nothing else is sent.
    let watcher = TransferWatcher(progress: progress, isCancelled: isCancelled)
    let context = Unmanaged.passRetained(watcher)
    defer { context.release() }
    var raw = pk_http_response()
    let method = request.method == "GET" ? nil : request.method
    let status: Int32 = url.withCString { cURL in
      withCStrings(lines + [method ?? ""]) { strings in
        let headers = strings
        var cRequest = pk_http_request()
        cRequest.url = cURL
        cRequest.method = method == nil ? nil : strings?[lines.count]
        cRequest.headers = headers
        cRequest.header_count = Int32(lines.count)
        cRequest.connect_timeout_ms = 10_000
        cRequest.timeout_ms = Int(request.timeout * 1000)
        cRequest.stall_timeout_ms = Int(request.stallTimeout * 1000)
        cRequest.max_bytes = Int64(request.maxBytes)
        cRequest.write_fd = file ?? -1
        cRequest.progress = { context, received, expected in
          let watcher = Unmanaged<TransferWatcher>.fromOpaque(context!).takeUnretainedValue()
          return watcher.report(received: received, expected: expected) ? 0 : 1
        }
        cRequest.context = context.toOpaque()
        return request.body.withUnsafeBufferPointer { body in
          cRequest.body = body.baseAddress
          cRequest.body_length = body.count
          return pk_http_get(&cRequest, &raw)
        }
      }
    }
    defer { pk_http_response_free(&raw) }
    let error = string(from: raw.error)
    switch status {
    case Int32(PK_HTTP_OK): break
    case Int32(PK_HTTP_TOO_LARGE):
      throw HTTPError(kind: .tooLarge, message: "response larger than \(request.maxBytes >> 20) MB")
    case Int32(PK_HTTP_ABORTED): throw HTTPError(kind: .cancelled, message: "cancelled")
    default:
      let host = Origin(url).map { "\($0.host):\($0.port)" } ?? url
      throw HTTPError(kind: .transport, message: "\(host): \(error)")
    }
    let body = raw.body.map { Array(UnsafeBufferPointer(start: $0, count: raw.length)) } ?? []
    let location = string(from: raw.location)
    let contentType = string(from: raw.content_type)
    return HTTPResponse(
      status: raw.status, body: body, contentType: contentType.isEmpty ? nil : contentType,
      location: location.isEmpty ? nil : location, url: url)
  }

  private static func string<T>(from tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
      let bytes = raw.prefix { $0 != 0 }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}

/// Bridges libcurl's progress callback to Swift closures.
private final class TransferWatcher {
  let progress: (@Sendable (Int64, Int64?) -> Void)?
  let isCancelled: @Sendable () -> Bool

  init(progress: (@Sendable (Int64, Int64?) -> Void)?, isCancelled: @escaping @Sendable () -> Bool) {
    self.progress = progress
    self.isCancelled = isCancelled
  }

  /// False to stop the transfer.
  func report(received: Int64, expected: Int64) -> Bool {
    progress?(received, expected >= 0 ? expected : nil)
    return !isCancelled()
  }
}

/// Calls `body` with the strings as a C array that lives for the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  let pointers = copies.map { UnsafePointer($0) }
  return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
