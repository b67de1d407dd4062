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
  /// How many items the source has given so far, repeats included: the
  /// offset of the next page.
  public private(set) var nextOffset = 0
  /// The source has items past `nextOffset`.
  public private(set) var hasMore = true
  /// A page fetched ahead, shown when the user activates Load-more.
  public private(set) var prefetched: Page?
  /// Load-more was activated (or moved onto) while its page was still on
  /// the way.
  public var revealOnArrival = false
  /// End was pressed on a listing whose size is known: pages are shown as
  /// they arrive and asked for until the last one.
  public var seeksEnd = false
  public private(set) var total: Int?
  /// The offset of the page in flight, if any.
  public var loadingOffset: Int?
  /// Why the last page failed; cleared by the next successful load.
  public var error: String?
  /// The last note a page brought, and whether the footer has shown it.
  public private(set) var note: String?
  public var noteShown = false
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
  /// Nothing in flight and nothing waiting: another page may be asked for.
  public var canRequestPage: Bool { loadingOffset == nil && prefetched == nil }
  /// True once a first page (or its failure) has arrived.
  public var hasLoadedOnce: Bool { !items.isEmpty || !hasMore || error != nil }

  /// The cells in grid order: Back first below the root, Load-more last while
  /// the source has more.
  public var cells: [GridCell] {
    (0..<cellCount).map { cell(at: $0)! }
  }

  /// Whether the Load-more cell is shown.
  public var offersMore: Bool { hasLoadedOnce && (hasMore || prefetched != nil) }

  /// Where the Load-more cell is (or would be): after the last item.
  public var loadMoreIndex: Int { (isRoot ? 0 : 1) + items.count }

  /// The last photo or folder loaded (Back when there is none).
  public var lastItemIndex: Int { max(0, loadMoreIndex - 1) }

  /// Number of cells without building them.
  public var cellCount: Int {
    (isRoot ? 0 : 1) + items.count + (offersMore ? 1 : 0)
  }

  public func cell(at index: Int) -> GridCell? {
    guard index >= 0, index < cellCount else { return nil }
    let itemIndex = index - (isRoot ? 0 : 1)
    if itemIndex < 0 { return .back }
    if itemIndex < items.count { return .item(itemIndex) }
    return .loadMore
  }

  /// Takes a page that arrived: the first page, or one the user is waiting
  /// for, is shown at once; a prefetched one waits for Load-more.
  public mutating func receive(_ page: Page) {
    nextOffset += page.items.count
    if let newNote = page.note, newNote != note {
      note = newNote
      noteShown = false
    }
    // A page of ids already shown means the source repeats itself (it
    // ignores the offset): asking on would loop forever.
    let bringsNothingNew = page.items.allSatisfy { loadedIDs.contains($0.id) }
    hasMore = page.hasMore && !bringsNothingNew
    total = page.total
    loadingOffset = nil
    error = nil
    if bringsNothingNew && !items.isEmpty {
      // Nothing to offer behind Load-more, and its total cannot be right.
      revealOnArrival = false
      seeksEnd = false
      total = items.count
      return
    }
    if items.isEmpty || revealOnArrival || seeksEnd {
      revealOnArrival = false
      show(page)
    } else {
      prefetched = page
    }
  }

  /// Shows the prefetched page; false when there is none.
  public mutating func revealPrefetched() -> Bool {
    guard let page = prefetched else { return false }
    prefetched = nil
    show(page)
    return true
  }

  /// Items whose ids were already shown are skipped, so a source that
  /// repeats itself cannot duplicate cells.
  private mutating func show(_ page: Page) {
    for item in page.items where loadedIDs.insert(item.id).inserted {
      items.append(item)
    }
  }

  public mutating func fail(_ message: String) {
    loadingOffset = nil
    revealOnArrival = false
    seeksEnd = false
    error = message
  }

  public mutating func clampFocus() {
    focus = min(max(0, focus), max(0, cellCount - 1))
  }
}
