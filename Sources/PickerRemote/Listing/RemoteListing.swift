/// Turns the listing shape both remote kinds share into a page:
///
///     {"items":[{"id":"42","kind":"photo","title":"Beach","thumbnail_url":"…",
///       "url":"…","width":4000,"height":3000,"taken_at":"…"}],
///      "has_more":true,"total":500}
///
/// URLs may be relative to `base`. A command source may give `path` (a local
/// file) instead of URLs. Items without an id, or of an unknown kind, are
/// skipped rather than failing the whole page.
public enum RemoteListing {
  public static func page(from json: JSONValue, sourceID: String, base: String?) throws(SourceError) -> Page {
    guard case .object = json, let items = json["items"]?.array else {
      throw SourceError("the response has no \"items\" list")
    }
    let parsed = items.compactMap { item(from: $0, sourceID: sourceID, base: base) }
    let hasMore = json["has_more"]?.bool ?? false
    let total = json["total"]?.int.flatMap { $0 >= 0 ? $0 : nil }
    var page = Page(items: parsed, hasMore: hasMore, total: total)
    page.nextOffset = json["next_offset"]?.int
    return page
  }

  /// Empty pages in a row asked past before the listing is taken as ended.
  public static let emptyPageLimit = 20

  /// Asks for `request`'s page with `fetch(offset)`, and on past empty
  /// pages that say `has_more` (a service that filters on its side answers
  /// them for stretches it left out): from `next_offset` when given, else
  /// after the empty stretch, up to `emptyPageLimit` of them. The page
  /// returned says where the one after it starts when that is not right
  /// after its items.
  public static func skippingEmptyPages(
    _ request: PageRequest, title: String, fetch: (Int) async throws -> Page
  ) async throws -> Page {
    var offset = request.offset
    for _ in 0..<emptyPageLimit {
      var page = try await fetch(offset)
      let next = page.nextOffset ?? offset + page.items.count
      if !page.items.isEmpty || !page.hasMore {
        page.nextOffset = next == request.offset + page.items.count ? nil : next
        return page
      }
      // Where the source says, when that is ahead; never back or in place.
      if let given = page.nextOffset, given > offset {
        offset = given
      } else {
        offset += max(1, request.limit)
      }
    }
    return Page(
      items: [], hasMore: false,
      note: "\(title) answered \(emptyPageLimit) empty pages in a row that said more follow: stopped asking")
  }

  static func item(from json: JSONValue, sourceID: String, base: String?) -> PhotoItem? {
    guard let id = json["id"]?.string ?? json["id"]?.int.map(String.init), !id.isEmpty else { return nil }
    let title = json["title"]?.string ?? id
    switch json["kind"]?.string ?? "photo" {
    case "album", "folder":
      let count = json["count"]?.int
      return PhotoItem(
        id: id, kind: .folder(count: count), title: Array(title.utf8),
        thumbnail: reference(json["thumbnail_url"], sourceID: sourceID, base: base))
    case "photo":
      // Only a command source (no base URL) runs on this machine and may
      // name a local file; a web service naming one could make the picker
      // print (and read) any path.
      if base == nil, let path = json["path"]?.string, !path.isEmpty {
        let file = PathBytes(path)
        let thumbnail = reference(json["thumbnail_url"], sourceID: sourceID, base: base) ?? .file(file)
        var photo = PhotoItem(
          id: id, kind: .photo, title: Array(title.utf8), thumbnail: thumbnail, original: .file(file),
          outputPath: file)
        photo.taken = takenDate(json)
        return photo
      }
      let original = reference(json["url"], sourceID: sourceID, base: base)
      let thumbnail = reference(json["thumbnail_url"], sourceID: sourceID, base: base) ?? original
      guard original != nil || thumbnail != nil else { return nil }
      var photo = PhotoItem(id: id, kind: .photo, title: Array(title.utf8), thumbnail: thumbnail, original: original)
      if let width = json["width"]?.int, let height = json["height"]?.int, (1...1_000_000).contains(width),
        (1...1_000_000).contains(height)
      {
        photo.listedSize = PixelSize(width: width, height: height)
      }
      photo.listedDate = json["taken_at"]?.string ?? json["taken"]?.string
      photo.taken = takenDate(json)
      return photo
    default:
      return nil
    }
  }

  /// `taken_at` (or `taken`), ISO 8601: "2024-06-01T10:00:00", with
  /// ".123" and "Z" or "+02:00" when given. The clock reading is kept as
  /// the photo's own, as with EXIF; the offset is kept beside it.
  static func takenDate(_ json: JSONValue) -> TakenDate? {
    guard let text = json["taken_at"]?.string ?? json["taken"]?.string, text.utf8.count >= 19 else { return nil }
    var bytes = Array(text.utf8)
    // EXIF's reader takes "YYYY-MM-DD HH:MM:SS" too.
    bytes[10] = UInt8(ascii: " ")
    let rest = String(decoding: bytes[19...], as: UTF8.self)
    var subSeconds = ""
    var offset = rest
    if rest.hasPrefix(".") {
      subSeconds = String(rest.dropFirst().prefix { $0.isNumber })
      offset = String(rest.dropFirst(1 + subSeconds.count))
    }
    if offset == "Z" { offset = "+00:00" }
    guard
      var taken = TakenDateParsing.exif(
        String(decoding: bytes[..<19], as: UTF8.self), subSeconds: subSeconds, offset: offset, latestDay: Int.max / 2)
    else { return nil }
    taken.origin = .listing
    return taken
  }

  private static func reference(_ value: JSONValue?, sourceID: String, base: String?) -> ImageReference? {
    guard let text = value?.string, !text.isEmpty else { return nil }
    if let base {
      guard let resolved = URLResolver.resolve(text, against: base) else { return nil }
      return .remote(source: sourceID, url: resolved)
    }
    return .remote(source: sourceID, url: text)
  }
}
