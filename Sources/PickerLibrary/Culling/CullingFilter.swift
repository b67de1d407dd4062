/// Which verdicts a listing keeps: the search words `rating>=3`,
/// `rating=0`, `rejected`, `-rejected`, `unrated`, `label:red`, and the
/// command line's `--min-rating` and `--label`.
public struct CullingFilter: Hashable, Sendable {
  /// Inclusive bounds on the stars (a rejected photo has −1).
  public var minRating: Int?
  public var maxRating: Int?
  /// Any of these labels.
  public var labels: Set<ColorLabel> = []
  /// Rejected photos left out (`-rejected`, the hide key).
  public var hidesRejected = false

  public init() {}

  public var isEmpty: Bool { minRating == nil && maxRating == nil && labels.isEmpty && !hidesRejected }

  public func matches(_ culling: Culling) -> Bool {
    if let minRating, culling.rating < minRating { return false }
    if let maxRating, culling.rating > maxRating { return false }
    if !labels.isEmpty, !(culling.label.map(labels.contains) ?? false) { return false }
    if hidesRejected, culling.isRejected { return false }
    return true
  }

  /// The condition on the index's `rating` and `label` columns of `p`.
  func condition() -> (sql: String, parameters: [Any?])? {
    var clauses: [String] = []
    var parameters: [Any?] = []
    if let minRating {
      clauses.append("p.rating >= ?")
      parameters.append(Int64(minRating))
    }
    if let maxRating {
      clauses.append("p.rating <= ?")
      parameters.append(Int64(maxRating))
    }
    if hidesRejected { clauses.append("p.rating >= 0") }
    if !labels.isEmpty {
      clauses.append("p.label IN (" + labels.map { _ in "?" }.joined(separator: ", ") + ")")
      parameters += labels.sorted { $0.rawValue < $1.rawValue }.map { Int64($0.rawValue) } as [Any?]
    }
    return clauses.isEmpty ? nil : (clauses.joined(separator: " AND "), parameters)
  }

  /// Takes the culling words out of a search's words, into a filter.
  public static func extract(from words: inout [String]) -> CullingFilter {
    var filter = CullingFilter()
    words.removeAll { filter.take($0) }
    return filter
  }

  /// Narrows by one search word; false when it is no culling word.
  public mutating func take(_ word: String) -> Bool {
    let word = word.lowercased()
    switch word {
    case "rejected":
      (minRating, maxRating) = (-1, -1)
      return true
    case "-rejected", "!rejected":
      hidesRejected = true
      return true
    case "unrated":
      (minRating, maxRating) = (0, 0)
      return true
    default: break
    }
    if word.hasPrefix("label:") || word.hasPrefix("label=") {
      guard let label = ColorLabel(name: String(word.dropFirst(6))) else { return false }
      labels.insert(label)
      return true
    }
    for stem in ["rating", "stars"] where word.hasPrefix(stem) {
      return takeComparison(word.dropFirst(stem.count))
    }
    return false
  }

  /// `>=3`, `>3`, `=3`, `:3`, `<=2`, `<2`.
  private mutating func takeComparison(_ rest: Substring) -> Bool {
    let operators = [">=", "<=", ">", "<", "=", ":"]
    guard let op = operators.first(where: { rest.hasPrefix($0) }),
      let value = Int(rest.dropFirst(op.count)), (-1...5).contains(value)
    else { return false }
    switch op {
    case ">=": minRating = max(minRating ?? -1, value)
    case ">": minRating = max(minRating ?? -1, value + 1)
    case "<=": maxRating = min(maxRating ?? 5, value)
    case "<": maxRating = min(maxRating ?? 5, value - 1)
    default:
      minRating = value
      maxRating = value
    }
    return true
  }
}
