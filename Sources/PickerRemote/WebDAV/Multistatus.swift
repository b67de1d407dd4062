import CNetworking

/// One entry of a PROPFIND reply (RFC 4918 multistatus), as the server
/// sent it: the href still percent-encoded.
public struct DAVEntry: Hashable, Sendable {
  public var href: String
  public var isCollection = false
  public var contentLength: Int64?
  public var contentType: String?
  public var lastModified: String?
  public var etag: String?
  /// Nextcloud and ownCloud: `oc:fileid`, `nc:has-preview`.
  public var fileID: String?
  public var hasPreview: Bool?

  public init(href: String) { self.href = href }
}

/// Reads PROPFIND replies with libxml2 (through CNetworking): no DTD, no
/// entity expansion, no network; a DOCTYPE is refused. The body's size is
/// bounded by the HTTP request that fetched it.
public enum Multistatus {
  /// What a listing asks for: the properties a grid needs, and Nextcloud's
  /// file id and preview flag where the server has them.
  public static let propfindBody = Array(
    """
    <?xml version="1.0" encoding="utf-8"?>
    <d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
      <d:prop>
        <d:resourcetype/><d:getcontentlength/><d:getcontenttype/><d:getlastmodified/><d:getetag/>
        <oc:fileid/><nc:has-preview/>
      </d:prop>
    </d:propfind>
    """.utf8)

  public static func parse(_ body: [UInt8]) throws(SourceError) -> [DAVEntry] {
    var entries: UnsafeMutablePointer<pk_dav_entry>?
    var count = 0
    var error = [CChar](repeating: 0, count: 256)
    let status = body.withUnsafeBufferPointer { bytes in
      pk_dav_parse_multistatus(bytes.baseAddress, bytes.count, &entries, &count, &error, error.count)
    }
    guard status == 0 else {
      throw SourceError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    defer { pk_dav_entries_free(entries) }
    return (0..<count).map { index in
      var raw = entries![index]
      var entry = DAVEntry(href: text(&raw.href) ?? "")
      entry.isCollection = raw.is_collection != 0
      entry.contentLength = raw.content_length >= 0 ? raw.content_length : nil
      entry.contentType = text(&raw.content_type)
      entry.lastModified = text(&raw.last_modified)
      entry.etag = text(&raw.etag)
      entry.fileID = text(&raw.file_id)
      entry.hasPreview = raw.has_preview < 0 ? nil : raw.has_preview == 1
      return entry
    }
  }

  private static func text<T>(_ field: inout T) -> String? {
    let value = withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return value.isEmpty ? nil : value
  }
}
