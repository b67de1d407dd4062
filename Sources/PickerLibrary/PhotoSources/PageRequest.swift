/// Which slice of a listing to return.
public struct PageRequest: Hashable, Sendable {
  public var offset: Int
  public var limit: Int
  public var sort: SortOrder
  /// Rejected photos left out, where the source knows verdicts.
  public var hidesRejected = false

  public init(offset: Int, limit: Int, sort: SortOrder = .name) {
    self.offset = offset
    self.limit = limit
    self.sort = sort
  }
}
