import Foundation

/// Scheme, host and port of a URL: the unit a credential is tied to. A
/// request to any other origin (a redirect to a CDN, a thumbnail on another
/// host) never carries it.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
  public var scheme: String
  public var host: String
  public var port: Int

  public init?(_ url: String) {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
      let host = components.host?.lowercased(), !host.isEmpty
    else { return nil }
    let defaultPort: Int
    switch scheme {
    case "http": defaultPort = 80
    case "https": defaultPort = 443
    default: return nil
    }
    self.scheme = scheme
    self.host = host
    self.port = components.port ?? defaultPort
  }

  public var description: String { "\(scheme)://\(host):\(port)" }
}

/// Joins a URL a service gave (absolute, or relative like "thumbs/1.png") to
/// the base it is relative to. Only http(s) results are absolute-resolved;
/// any other scheme is returned as it came (a custom source's own scheme).
public enum URLResolver {
  public static func resolve(_ reference: String, against base: String) -> String? {
    if let scheme = URLComponents(string: reference)?.scheme, !scheme.isEmpty { return reference }
    // A base without a trailing slash names a folder here ({url}/photos), so
    // "thumbs/1.png" belongs below it, not beside it.
    let folder = base.hasSuffix("/") ? base : base + "/"
    guard let baseURL = URL(string: folder), let resolved = URL(string: reference, relativeTo: baseURL) else {
      return nil
    }
    return resolved.absoluteString
  }

  /// Whether a URL is fetched over HTTP by the picker itself.
  public static func isHTTP(_ url: String) -> Bool {
    let lower = url.prefix(8).lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
  }
}
