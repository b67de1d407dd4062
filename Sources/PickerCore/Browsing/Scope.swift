/// What a grid position shows. Back and Load-more are made by the core for
/// every source; sources only list items.
public enum GridCell: Hashable, Sendable {
  case back
  case item(Int)
  case loadMore
}

/// One level of browsing in a source: its root, a folder, or a search, with
/// the pages loaded so far and where the focus is.
public struct Scope: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case root
    case folder(FolderID)
    case search(query: String, folder: FolderID?)
  }

  public var kind: Kind
  /// The breadcrumb component (already sanitised).
  public var label: String
  /// Tags page results; a result whose tag is not on the stack is dropped.
  public var generation: Int
  public var sort: SortOrder
  public private(set) var items: [PhotoItem] = []
  private var loadedIDs: Set<String> = []
  public private(set) var hasMore = true
  public private(set) var total: Int?
  /// The offset of the page in flight, if any.
  public var loadingOffset: Int?
  /// Why the last page failed; cleared by the next successful load.
  public var error: String?
  public var focus = 0
  /// The first grid row on screen.
  public var scrollRow = 0

  public init(kind: Kind, label: String, generation: Int, sort: SortOrder = .name) {
    self.kind = kind
    self.label = label
    self.generation = generation
    self.sort = sort
  }

  public var isRoot: Bool { kind == .root }
  public var isLoading: Bool { loadingOffset != nil }
  /// True once a first page (or its failure) has arrived.
  public var hasLoadedOnce: Bool { !items.isEmpty || !hasMore || error != nil }

  /// The cells in grid order: Back first below the root, Load-more last while
  /// the source has more.
  public var cells: [GridCell] {
    (0..<cellCount).map { cell(at: $0)! }
  }

  /// Number of cells without building them.
  public var cellCount: Int {
    (isRoot ? 0 : 1) + items.count + (hasMore && hasLoadedOnce ? 1 : 0)
  }

  public func cell(at index: Int) -> GridCell? {
    guard index >= 0, index < cellCount else { return nil }
    let itemIndex = index - (isRoot ? 0 : 1)
    if itemIndex < 0 { return .back }
    if itemIndex < items.count { return .item(itemIndex) }
    return .loadMore
  }

  /// Adds a page; items whose ids were already loaded are skipped, so a
  /// source that repeats itself cannot duplicate cells.
  public mutating func append(_ page: Page) {
    for item in page.items where loadedIDs.insert(item.id).inserted {
      items.append(item)
    }
    hasMore = page.hasMore
    // A page that adds nothing new but claims more would loop forever.
    if page.items.isEmpty { hasMore = false }
    total = page.total
    loadingOffset = nil
    error = nil
  }

  public mutating func fail(_ message: String) {
    loadingOffset = nil
    error = message
  }

  public mutating func clampFocus() {
    focus = min(max(0, focus), max(0, cellCount - 1))
  }
}
