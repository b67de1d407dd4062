/// What was read of the photos a preview or compare shows: their facts
/// (a few at a time, as read) and sharpness scores (nil while scoring, or
/// unreadable). Forgotten back on the grid, so a long session keeps none
/// it no longer shows.
public struct PhotoReadings: Hashable, Sendable {
  public var facts: [ImageReference: PhotoFacts] = [:]
  public var sharpness: [ImageReference: Double?] = [:]

  public init() {}

  public var isEmpty: Bool { facts.isEmpty && sharpness.isEmpty }

  /// The photos whose reads were asked for and have not come back: the
  /// event loop drops any other read not begun yet.
  public var pending: Set<ImageReference> {
    Set(facts.filter { $0.value.isLoading }.keys).union(sharpness.filter { $0.value == .some(nil) }.keys)
  }

  /// Keeps what was read or asked of these photos only (what the mode on
  /// top shows); a read of another that comes back later is not kept.
  mutating func keep(only references: Set<ImageReference>) {
    if facts.keys.contains(where: { !references.contains($0) }) {
      facts = facts.filter { references.contains($0.key) }
    }
    if sharpness.keys.contains(where: { !references.contains($0) }) {
      sharpness = sharpness.filter { references.contains($0.key) }
    }
  }

  /// A file's facts as read, if they were still awaited.
  mutating func receiveFacts(_ read: PhotoFacts, for reference: ImageReference) {
    guard let awaited = facts[reference], awaited.isLoading else { return }
    var read = read
    // The name was set when asked for, from the listing.
    read.name = awaited.name
    facts[reference] = read
  }

  /// A photo's sharpness as scored, if it was still awaited.
  mutating func receiveSharpness(_ score: Double?, for reference: ImageReference) {
    guard sharpness[reference] == .some(nil) else { return }
    sharpness[reference] = .some(score)
  }
}
