import Foundation

/// Any rclone remote the user has configured (Dropbox, Google Drive,
/// OneDrive, S3, SFTP, SMB…), through their own rclone: listed with
/// `operations/list` on the shared `rclone rcd`, files read through its
/// `--rc-serve` object serving (`/[remote:path]/file`). Sub-folders are
/// albums; images (by MIME type or extension) photos; thumbnails come from
/// a ranged read of a file's first bytes, as for WebDAV.
public final class RcloneSource: PhotoSource, RemoteImageSource, @unchecked Sendable {
  public let id: String
  public let title: String
  /// The remote and path, as in the config: "dropbox:Camera Uploads".
  public let remote: String
  public let executable: String
  public let timeout: Double
  private let log: LogFile?
  private let lock = NSLock()
  private var listings: [String: [PhotoItem]] = [:]
  /// Bytes its thumbnails cost, ranged reads on or off (the benchmark).
  public let thumbnailTraffic: ThumbnailTraffic
  private let http: RemoteHTTP

  public static let maxListingBytes = 64 << 20
  /// Listed URLs start here, not at the daemon's random port: they stay the
  /// same from run to run (the thumbnail cache's key) and across a daemon
  /// restart; each request puts the running daemon's address in its place.
  static let listedBase = RemoteHTTP.listedBase

  public init(title: String, remote: String, executable: String = "rclone", timeout: Double = 30, log: LogFile?) {
    self.id = "rclone:" + title
    self.title = title
    self.remote = remote
    self.executable = executable
    self.timeout = timeout
    self.log = log
    let thumbnailTraffic = ThumbnailTraffic()
    self.thumbnailTraffic = thumbnailTraffic
    self.http = RemoteHTTP(
      title: title, timeout: timeout, maxListingBytes: Self.maxListingBytes, maxThumbnailBytes: 64 << 20,
      ranged: thumbnailTraffic,
      endpoint: { () throws(SourceError) in
        let daemon = try Self.daemon(title: title, executable: executable, log: log)
        return RemoteHTTP.Endpoint(
          origin: Origin(daemon.baseURL), authorization: daemon.authorization, base: daemon.baseURL,
          onTransportError: { daemon.markUnreachable() })
      },
      judge: { (response, _) throws(SourceError) in
        guard (200..<300).contains(response.status) else {
          // rclone's own words: "directory not found", "didn't find section
          // in config file", a cloud service's refusal.
          let reason = JSONValue.parse(response.body)?["error"]?.string ?? "HTTP \(response.status)"
          throw SourceError("\(title): \(reason)")
        }
      })
  }

  public var icon: String { "☁" }
  public var capabilities: SourceCapabilities { [.paging, .albums] }

  public func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    let path = folder ?? ""
    guard !path.split(separator: "/").contains(where: { $0 == ".." }) else {
      throw SourceError("\(title): not a folder of this source")
    }
    let cached = lock.withLock { page.offset == 0 ? nil : listings[path] }
    let items: [PhotoItem]
    if let cached {
      items = cached
    } else {
      items = try await list(path)
      lock.withLock { listings[path] = items }
    }
    let (slice, hasMore) = items.page(page)
    return Page(items: Array(slice), hasMore: hasMore, total: items.count)
  }

  private static func daemon(title: String, executable: String, log: LogFile?) throws(SourceError) -> RcloneDaemon {
    do {
      return try RcloneDaemon.shared(executable: executable, log: log)
    } catch {
      throw SourceError("\(title): \(error.message)")
    }
  }

  private func list(_ path: String) async throws(SourceError) -> [PhotoItem] {
    let first = try http.endpoint()
    do {
      return try await list(path, endpoint: first)
    } catch {
      // rclone was killed or crashed: once more, with a new one.
      let next = try http.endpoint()
      guard next.base != first.base else { throw error }
      return try await list(path, endpoint: next)
    }
  }

  private func list(_ path: String, endpoint: RemoteHTTP.Endpoint) async throws(SourceError) -> [PhotoItem] {
    let body: JSONValue = ["fs": .string(remote), "remote": .string(path)]
    let response = try await http.list(
      Self.listedBase + "/operations/list", method: "POST", headers: ["Content-Type": "application/json"],
      body: Array((try? JSONEncoder().encode(body)) ?? Data()), authorization: endpoint.authorization,
      endpoint: endpoint, unreachable: { [title] in "\(title): rclone does not answer (\($0))" })
    guard let entries = JSONValue.parse(response.body)?["list"]?.array else {
      throw SourceError("\(title): rclone sent no listing")
    }
    return RcloneListing.items(entries, folder: path, fileURL: fileURL, sourceID: id)
  }

  /// The object-serving URL of a file: /[remote]/path, each part escaped.
  private func fileURL(_ path: String) -> String {
    let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { WebSource.escape(String($0)) }
    return Self.listedBase + "/" + WebSource.escape("[" + remote + "]") + "/" + segments.joined(separator: "/")
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

/// rclone's `operations/list` entries as the grid's items.
enum RcloneListing {
  static func items(_ entries: [JSONValue], folder: String, fileURL: (String) -> String, sourceID: String)
    -> [PhotoItem]
  {
    var items: [PhotoItem] = []
    for entry in entries {
      guard let name = entry["Name"]?.string, !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
        continue
      }
      let path = folder.isEmpty ? name : folder + "/" + name
      let title = Array(name.utf8)
      if entry["IsDir"]?.bool == true {
        items.append(PhotoItem(id: path, kind: .folder(count: nil), title: title))
        continue
      }
      let isImage = entry["MimeType"]?.string?.lowercased().hasPrefix("image/") ?? false
      guard isImage || PhotoFileTypes.isPhoto(name: title) else { continue }
      let url = fileURL(path)
      // ModTime and Size stand in for an ETag in the thumbnail cache's key.
      let version = [entry["ModTime"]?.string, entry["Size"]?.int.map(String.init)].compactMap { $0 }.joined(
        separator: "-")
      var photo = PhotoItem(
        id: path, kind: .photo, title: title,
        thumbnail: .remote(source: sourceID, url: DAVListing.headURL(url, etag: version.isEmpty ? nil : version)),
        original: .remote(source: sourceID, url: url))
      photo.listedDate = entry["ModTime"]?.string
      items.append(photo)
    }
    let order = NaturalOrder.sortedIndices(of: items.map(\.title), groups: items.map { $0.isFolder ? 0 : 1 })
    return order.map { items[$0] }
  }
}
