/// What was read of the photos a preview or compare shows: their facts
/// (a few at a time, as read) and sharpness scores (nil while scoring, or
/// unreadable). Forgotten back on the grid, so a long session keeps none
/// it no longer shows.
public struct PhotoReadings: Hashable, Sendable {
  public var facts: [ImageReference: PhotoFacts] = [:]
  public var sharpness: [ImageReference: Double?] = [:]

  public init() {}

  public var isEmpty: Bool { facts.isEmpty && sharpness.isEmpty }
}
