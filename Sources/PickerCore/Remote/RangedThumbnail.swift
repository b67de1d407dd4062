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
    _ url: String, ranged: Bool, progress: (@Sendable (Int64, Int64?) -> Void)?,
    get: (String, Int?, (@Sendable (Int64, Int64?) -> Void)?) throws(SourceError) -> HTTPResponse
  ) throws(SourceError) -> LoadedImageData {
    guard let file = DAVListing.file(ofHeadURL: url) else { return .bytes(try get(url, nil, progress).body) }
    if ranged {
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
