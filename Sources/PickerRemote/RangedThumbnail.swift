import Foundation

/// A tile's thumbnail from a remote file (WebDAV, rclone): the EXIF
/// thumbnail in the file's first bytes when it has one, else the whole
/// file. Thumbnail URLs carry a mark (`DAVListing.headURL`) that says so;
/// any other URL (a server-side preview, an original) is fetched whole.
enum RangedThumbnail {
  /// The ranged reads tried before the whole file: camera JPEGs keep their
  /// EXIF thumbnail in the first 64 KB; some makers' notes push it further.
  static let headSizes = [64 << 10, 256 << 10]

  /// `get(url, range, progress)` performs one GET (range: the first N
  /// bytes, or nil for all) and checks its status.
  static func fetch(
    _ url: String, traffic: ThumbnailTraffic, progress: (@Sendable (Int64, Int64?) -> Void)?,
    get rawGet: (String, Int?, (@Sendable (Int64, Int64?) -> Void)?) throws(SourceError) -> HTTPResponse
  ) throws(SourceError) -> LoadedImageData {
    func get(_ url: String, _ range: Int?, _ progress: (@Sendable (Int64, Int64?) -> Void)?) throws(SourceError)
      -> HTTPResponse
    {
      let response = try rawGet(url, range, progress)
      traffic.add(response.body.count)
      return response
    }
    guard let file = DAVListing.file(ofHeadURL: url) else { return .bytes(try get(url, nil, progress).body) }
    if traffic.ranged {
      for size in headSizes {
        let response = try get(file, size, nil)
        // A server that ignores Range sent the whole file: use it.
        guard response.status == 206 else { return .bytes(response.body) }
        if ImageDecoder.headHasUsableThumbnail(response.body) { return .head(response.body) }
        // Not a JPEG with a thumbnail, or a short file: no need to widen.
        if response.body.count < size || !response.body.starts(with: [0xFF, 0xD8, 0xFF]) { break }
      }
    }
    return .bytes(try get(file, nil, progress).body)
  }
}

/// What a remote source's thumbnails cost on the wire, and whether they
/// come from ranged reads (on by default; the benchmark turns it off to
/// compare with whole files).
public final class ThumbnailTraffic: @unchecked Sendable {
  private let lock = NSLock()
  private var bytes: Int64 = 0
  private var isRanged = true

  public init() {}

  public var ranged: Bool {
    get { lock.withLock { isRanged } }
    set { lock.withLock { isRanged = newValue } }
  }

  /// Bytes of thumbnail responses received so far.
  public var bytesReceived: Int64 { lock.withLock { bytes } }

  func add(_ count: Int) { lock.withLock { bytes += Int64(count) } }
}
