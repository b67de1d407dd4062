/// The order a listing is asked for in.
public enum SortOrder: String, CaseIterable, Hashable, Sendable {
  case name
  case date

  /// The next order in the cycle the `s` key walks through.
  public var next: SortOrder {
    let all = SortOrder.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }
}
