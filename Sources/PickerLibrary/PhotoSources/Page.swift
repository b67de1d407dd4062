/// One page of a listing.
public struct Page: Hashable, Sendable {
  public var items: [PhotoItem]
  /// More items follow this page.
  public var hasMore: Bool
  /// The size of the whole listing, when the source knows it.
  public var total: Int?
  /// Something the user should know about the listing ("3 folders in the
  /// list skipped"), shown once in the footer when it changes.
  public var note: String?
  /// A timeline's photos per day, newest first, for the whole listing
  /// (given with the first page): the scale and the date jumps know the
  /// whole length before its rows are read.
  public var days: [DayCount]?
  /// Where the next page starts when it is not right after this page's
  /// items: a source that filters on its side skipped what it left out.
  public var nextOffset: Int?

  public init(items: [PhotoItem], hasMore: Bool, total: Int? = nil, note: String? = nil) {
    self.items = items
    self.hasMore = hasMore
    self.total = total
    self.note = note
  }
}

/// Identifies a folder (album) inside a source; nil stands for the root.
public typealias FolderID = String
