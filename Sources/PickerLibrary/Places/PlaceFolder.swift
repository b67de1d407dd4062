/// The Places scope's levels, as folder ids of the Photos source:
/// countries, a country's places, a place's photos.
public enum PlaceFolder: Hashable, Sendable {
  case countries
  /// By its ISO code ("PT"); "" for named areas outside every country.
  case country(code: String)
  /// A place's key (`PlaceNamer`).
  case place(key: Int)

  static let prefix = "places:"

  public var id: FolderID {
    switch self {
    case .countries: return Self.prefix
    case .country(let code): return Self.prefix + "country:" + code
    case .place(let key): return Self.prefix + "place:\(key)"
    }
  }

  public init?(id: FolderID) {
    guard id.hasPrefix(Self.prefix) else { return nil }
    let rest = id.dropFirst(Self.prefix.count)
    if rest.isEmpty {
      self = .countries
    } else if rest.hasPrefix("country:") {
      self = .country(code: String(rest.dropFirst("country:".count)))
    } else if rest.hasPrefix("place:"), let key = Int(rest.dropFirst("place:".count)) {
      self = .place(key: key)
    } else {
      return nil
    }
  }
}
