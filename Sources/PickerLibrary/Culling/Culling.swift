/// A photographer's verdict on a photo: stars, a reject, a colour label,
/// as XMP says them so that darktable, digiKam, Lightroom and Immich see
/// the same (`xmp:Rating` −1…5, `xmp:Label`; `XMPCulling` reads their other
/// spellings).
public struct Culling: Hashable, Sendable {
  /// −1 rejected, 0 unrated, 1…5 stars: one property in XMP, so a reject
  /// has no stars and stars end a reject.
  public var rating: Int
  public var label: ColorLabel?

  public init(rating: Int = 0, label: ColorLabel? = nil) {
    self.rating = min(5, max(-1, rating))
    self.label = label
  }

  public static let none = Culling()

  public var isRejected: Bool { rating == -1 }
  public var stars: Int { max(0, rating) }
  public var isEmpty: Bool { rating == 0 && label == nil }

  /// "★★★", "✗ rejected", "" for none: what tiles and the facts say.
  public var starText: String {
    isRejected ? "✗" : String(repeating: "★", count: stars)
  }

  /// The facts panel's words: "★★★ · Red", "rejected", nil when unrated
  /// with no label.
  public var summary: String? {
    var parts: [String] = []
    if isRejected { parts.append("rejected") } else if stars > 0 { parts.append(starText) }
    if let label { parts.append(label.xmpName) }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }
}

/// The five colour labels the editors share (Lightroom's names; darktable
/// numbers them 0…4, digiKam has more colours and maps these five).
public enum ColorLabel: Int, CaseIterable, Hashable, Sendable {
  case red = 1, yellow, green, blue, purple

  /// `xmp:Label`'s value.
  public var xmpName: String {
    switch self {
    case .red: "Red"
    case .yellow: "Yellow"
    case .green: "Green"
    case .blue: "Blue"
    case .purple: "Purple"
    }
  }

  /// The search word and the command line's name: "red".
  public var name: String { xmpName.lowercased() }

  public init?(name: String) {
    guard let label = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
    self = label
  }
}

/// What one change sets: only these properties are written, so a property
/// another program changed meanwhile is left as it now is on disk.
public struct CullingChange: Hashable, Sendable {
  public var setsRating: Bool
  public var setsLabel: Bool
  /// The values (those not set are ignored).
  public var culling: Culling

  public init(culling: Culling, setsRating: Bool, setsLabel: Bool) {
    self.culling = culling
    self.setsRating = setsRating
    self.setsLabel = setsLabel
  }

  /// `self` applied to `culling`.
  public func applied(to culling: Culling) -> Culling {
    var result = culling
    if setsRating { result.rating = self.culling.rating }
    if setsLabel { result.label = self.culling.label }
    return result
  }
}
