/// A page to fetch from a source; its result comes back as an event with the
/// same value, so it can be matched to its scope.
public struct PageLoad: Hashable, Sendable {
  public var sourceIndex: Int
  public var scope: Scope.Kind
  public var request: PageRequest
  public var generation: Int
  /// Not a page to show: the listing whole, for a day, a range or "all"
  /// to select (`AppState+SelectMany`).
  public var sweep: SelectionReach? = nil
}
