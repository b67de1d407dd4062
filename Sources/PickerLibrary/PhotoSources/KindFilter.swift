/// Which kinds of file a listing keeps: the search words `video`, `photo`,
/// `live`, `raw` (any of those given) and `-video`, `-photo`, `-live`,
/// `-raw` (none of those), and the command line's `--only`.
public struct KindFilter: Hashable, Sendable {
  public enum Kind: String, CaseIterable, Hashable, Sendable {
    case photo, video, live, raw

    /// `videos` and `photos` read as well as the singular.
    public init?(word: String) {
      let word = word.lowercased()
      if let kind = Kind(rawValue: word) {
        self = kind
      } else if word.hasSuffix("s"), let kind = Kind(rawValue: String(word.dropLast())) {
        self = kind
      } else {
        return nil
      }
    }
  }

  /// Any of these (none: any kind).
  public var wanted: Set<Kind> = []
  /// None of these.
  public var unwanted: Set<Kind> = []

  public init(wanted: Set<Kind> = [], unwanted: Set<Kind> = []) {
    self.wanted = wanted
    self.unwanted = unwanted
  }

  public var isEmpty: Bool { wanted.isEmpty && unwanted.isEmpty }

  /// What a file is, from what its listing knows.
  public static func kinds(name: [UInt8], isVideo: Bool, isLive: Bool) -> Set<Kind> {
    var kinds: Set<Kind> = [isVideo ? .video : .photo]
    if isLive { kinds.insert(.live) }
    if PhotoFileTypes.isRaw(name: name) { kinds.insert(.raw) }
    return kinds
  }

  public func matches(_ kinds: Set<Kind>) -> Bool {
    if !wanted.isEmpty, wanted.isDisjoint(with: kinds) { return false }
    return unwanted.isDisjoint(with: kinds)
  }

  public func matches(name: [UInt8], isVideo: Bool, isLive: Bool) -> Bool {
    isEmpty || matches(Self.kinds(name: name, isVideo: isVideo, isLive: isLive))
  }

  /// Both filters at once: a search's words within `--only`.
  public func narrowed(by other: KindFilter) -> KindFilter {
    var result = self
    result.unwanted.formUnion(other.unwanted)
    if result.wanted.isEmpty {
      result.wanted = other.wanted
    } else if !other.wanted.isEmpty {
      // `--only videos` and a search for `photo`: nothing is both.
      let common = result.wanted.intersection(other.wanted)
      result.wanted = common.isEmpty ? [] : common
      if common.isEmpty { result.unwanted.formUnion(Kind.allCases) }
    }
    return result
  }

  /// Takes the kind words out of a search's words, into a filter.
  public static func extract(from words: inout [String]) -> KindFilter {
    var filter = KindFilter()
    words.removeAll { filter.take($0) }
    return filter
  }

  /// Narrows by one search word; false when it is no kind word.
  public mutating func take(_ word: String) -> Bool {
    if let first = word.first, first == "-" || first == "!" {
      guard let kind = Kind(word: String(word.dropFirst())) else { return false }
      unwanted.insert(kind)
      return true
    }
    guard let kind = Kind(word: word) else { return false }
    wanted.insert(kind)
    return true
  }

  /// The condition on the index's row `p`: a video has a duration, a Live
  /// Photo its MOV (or a Motion Photo's name), a raw its extension.
  func condition() -> (sql: String, parameters: [Any?])? {
    func test(_ kind: Kind) -> String {
      switch kind {
      case .video: return "p.duration IS NOT NULL"
      case .photo: return "p.duration IS NULL"
      case .live:
        // LIKE ignores ASCII case.
        return "(p.live_video IS NOT NULL OR CAST(p.name AS TEXT) LIKE '%.MP.JP%G'"
          + " OR CAST(p.name AS TEXT) LIKE 'MVIMG\\_%.JPG' ESCAPE '\\')"
      case .raw:
        // Every raw extension has three letters.
        let extensions = PhotoFileTypes.rawExtensions.sorted().map { "'.\($0)'" }.joined(separator: ", ")
        return "lower(substr(CAST(p.name AS TEXT), -4)) IN (" + extensions + ")"
      }
    }
    var clauses: [String] = []
    if !wanted.isEmpty {
      clauses.append("(" + wanted.sorted { $0.rawValue < $1.rawValue }.map(test).joined(separator: " OR ") + ")")
    }
    for kind in unwanted.sorted(by: { $0.rawValue < $1.rawValue }) { clauses.append("NOT " + test(kind)) }
    return clauses.isEmpty ? nil : (clauses.joined(separator: " AND "), [])
  }
}
