import Foundation

/// Turns a folder's PROPFIND entries into the grid's items: sub-collections
/// are albums, images are photos, other files are skipped. An href is
/// resolved against the folder and kept only when it lies inside the
/// source's base URL (same origin, below its path): a server cannot make the
/// picker fetch, with its credentials, something it was not pointed at.
public enum DAVListing {
  /// Marks a listed file's URL as its thumbnail: fetched by a ranged read
  /// of its first bytes (the EXIF thumbnail). Fragments are never sent.
  /// The file's ETag follows it, so the thumbnail cache, keyed by URL,
  /// keeps a thumbnail only while the file is unchanged.
  static let headFragment = "#picker-tui-head"

  /// The thumbnail URL for a file: its URL, the mark and its ETag.
  static func headURL(_ file: String, etag: String?) -> String {
    file + headFragment + (etag.map { ":" + WebSource.escape($0) } ?? "")
  }

  /// The file a thumbnail URL made by `headURL` reads, or nil.
  static func file(ofHeadURL url: String) -> String? {
    url.range(of: headFragment).map { String(url[..<$0.lowerBound]) }
  }

  public static func items(
    _ entries: [DAVEntry], folder: String, base: String, sourceID: String, previewRoot: String? = nil
  ) -> [PhotoItem] {
    let base = base.hasSuffix("/") ? base : base + "/"
    guard let baseSegments = segments(of: base), let folderSegments = segments(of: folder),
      let baseOrigin = Origin(base)
    else { return [] }
    var items: [PhotoItem] = []
    var seen: Set<String> = []
    for entry in entries {
      guard let url = URLResolver.resolve(entry.href, against: folder), Origin(url) == baseOrigin,
        let path = segments(of: url), path.count == folderSegments.count + 1,
        Array(path.prefix(baseSegments.count)) == baseSegments,
        Array(path.prefix(folderSegments.count)) == folderSegments
      else { continue }
      // One item per resource, whatever form its href took ("//", a host
      // in another case): the base, then the href's own segments below it.
      guard let encoded = encodedSegments(of: url), encoded.count == path.count else { continue }
      let below = encoded[baseSegments.count...].joined(separator: "/")
      let canonical = canonicalURL(base + below, isCollection: entry.isCollection)
      guard seen.insert(canonical).inserted, let name = path.last, !name.isEmpty else { continue }
      let title = Array(name.utf8)
      if entry.isCollection {
        items.append(PhotoItem(id: canonical, kind: .folder(count: nil), title: title))
        continue
      }
      let isImage = entry.contentType?.lowercased().hasPrefix("image/") ?? false
      guard isImage || PhotoFileTypes.isPhoto(name: title) else { continue }
      var thumbnail = headURL(canonical, etag: entry.etag)
      if let previewRoot, entry.hasPreview == true, let fileID = entry.fileID,
        fileID.allSatisfy({ $0.isASCII && $0.isNumber })
      {
        // c= is what Nextcloud's own web client sends: the ETag, as a
        // cache key of its own and ours.
        thumbnail =
          previewRoot + "/index.php/core/preview?fileId=\(fileID)&x=256&y=256&a=1"
          + (entry.etag.map { "&c=" + WebSource.escape($0) } ?? "")
      }
      var photo = PhotoItem(
        id: canonical, kind: .photo, title: title, thumbnail: .remote(source: sourceID, url: thumbnail),
        original: .remote(source: sourceID, url: canonical))
      photo.listedDate = entry.lastModified
      items.append(photo)
    }
    // Albums first, then natural order by name, as the folder source does.
    let order = NaturalOrder.sortedIndices(of: items.map(\.title), groups: items.map { $0.isFolder ? 0 : 1 })
    return order.map { items[$0] }
  }

  /// Nextcloud serves WebDAV below `…/remote.php/dav/files/USER/` and
  /// previews from `…/index.php/core/preview`: the part before remote.php.
  public static func nextcloudRoot(of base: String) -> String? {
    guard let range = base.range(of: "/remote.php/") else { return nil }
    return String(base[..<range.lowerBound])
  }

  /// The path's segments, percent-decoded; nil when one is "." or ".." or
  /// cannot be decoded (such an href is dropped, never normalised away).
  static func segments(of url: String) -> [String]? {
    guard let components = URLComponents(string: url) else { return nil }
    var result: [String] = []
    for raw in components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true) {
      guard let decoded = String(raw).removingPercentEncoding, decoded != ".", decoded != ".." else { return nil }
      result.append(decoded)
    }
    return result
  }

  /// The path's segments as sent (percent-encoded), empty ones left out.
  static func encodedSegments(of url: String) -> [String]? {
    URLComponents(string: url).map {
      $0.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
  }

  /// A collection's URL with a trailing slash, a file's without, so the
  /// same resource listed twice is one item.
  static func canonicalURL(_ url: String, isCollection: Bool) -> String {
    var trimmed = url
    if let hash = trimmed.firstIndex(of: "#") { trimmed = String(trimmed[..<hash]) }
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    return isCollection ? trimmed + "/" : trimmed
  }
}
