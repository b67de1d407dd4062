/// Near-identical shots, grouped: consecutive photos of a listing in date
/// order taken at most `maxGap` seconds apart whose difference hashes
/// differ by at most `maxDistance` bits, or that share a burst id (the
/// camera said they are one burst, whatever the pictures look like).
public struct StackingRule: Hashable, Sendable {
  public var maxGap: Double
  public var maxDistance: Int

  public init(maxGap: Double = 2, maxDistance: Int = 10) {
    self.maxGap = maxGap
    self.maxDistance = maxDistance
  }

  /// One photo as stacking sees it.
  public struct Photo: Hashable, Sendable {
    /// Seconds on the photo's clock (any epoch: only differences count).
    public var taken: Double?
    public var signature: PhotoSignature?
    public var burstID: String?

    public init(taken: Double?, signature: PhotoSignature?, burstID: String? = nil) {
      self.taken = taken
      self.signature = signature
      self.burstID = burstID
    }
  }

  /// Whether `next` joins the stack of the photo before it.
  public func joins(_ next: Photo, after previous: Photo) -> Bool {
    if let id = next.burstID, id == previous.burstID { return true }
    guard let a = previous.taken, let b = next.taken, abs(b - a) <= maxGap,
      let first = previous.signature, let second = next.signature
    else { return false }
    return first.distance(to: second) <= maxDistance
  }

  /// The listing cut into runs of consecutive photos: each range is one
  /// stack (a photo alone is a range of one).
  public func stacks(_ photos: [Photo]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0
    for index in photos.indices.dropFirst() where !joins(photos[index], after: photos[index - 1]) {
      runs.append(start..<index)
      start = index
    }
    if !photos.isEmpty { runs.append(start..<photos.count) }
    return runs
  }

  /// Each photo's sharpness as 0-100 of the sharpest in its stack (nil
  /// for one not scored yet), and which one that is (the cover; the first
  /// of equals, nil when none is scored).
  public static func scores(_ signatures: [PhotoSignature?]) -> (scores: [Int?], sharpest: Int?) {
    let scored = signatures.indices.filter { signatures[$0] != nil }
    guard let best = scored.max(by: { signatures[$0]!.sharpness < signatures[$1]!.sharpness }) else {
      return (signatures.map { _ in nil }, nil)
    }
    let top = signatures[best]!.sharpness
    let scores = signatures.map { signature in
      signature.map { top > 0 ? Int((max(0, $0.sharpness) / top * 100).rounded()) : 100 }
    }
    return (scores, best)
  }

  /// The same, every photo scored.
  public static func scores(_ signatures: [PhotoSignature]) -> (scores: [Int], sharpest: Int?) {
    let (scores, sharpest) = scores(signatures.map(Optional.some))
    return (scores.map { $0 ?? 0 }, sharpest)
  }
}

/// Burst ids cameras and phones put in file names: Google's
/// `…_BURST20230614101500123…` and Samsung's `20230614_101500_001.jpg`
/// (the shot's time with a burst counter).
public enum BurstName {
  public static func id(fromFileName name: String) -> String? {
    if let range = name.range(of: "_BURST") {
      let digits = name[range.upperBound...].prefix { $0.isNumber }
      if digits.count >= 8 { return "burst-" + digits }
    }
    let stem = name.split(separator: ".").first.map(String.init) ?? name
    let parts = stem.split(separator: "_")
    if parts.count == 3, parts[0].count == 8, parts[1].count == 6, parts[2].count == 3,
      parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
    {
      return "samsung-\(parts[0])_\(parts[1])"
    }
    return nil
  }
}
