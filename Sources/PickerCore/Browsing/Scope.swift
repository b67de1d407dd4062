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
  /// The first grid row on screen (`GridRows`' numbering: day headers count).
  public var scrollRow = 0
  /// The listing is in date order and grouped by day (a timeline, or a
  /// folder sorted by date taken).
  public var groupsByDay = false
  /// Runs of loaded items on the same day (or undated), in order: the day
  /// headers, kept as pages arrive so drawing never walks every item.
  public private(set) var sections: [ItemSection] = []
  /// Photos per day of the whole listing, newest first, when the source
  /// gave them (a timeline's first page).
  public private(set) var days: [DayCount]?
  /// Where in the whole listing a date jump is heading (an offset, like
  /// `baseOffset`), when it is not loaded yet: pages are asked for until it
  /// is, then the focus lands on it.
  public var seekItem: Int?
  /// The listing offset of `items[0]`: a long timeline is shown through a
  /// window, moved by far jumps and grown at both ends as the user goes.
  public private(set) var baseOffset = 0
  /// The offset of the newer page in flight (before `baseOffset`), if any.
  public var loadingNewerOffset: Int?
  /// After the listing was read again (an index filled in), the focus goes
  /// back to this item when it is in the first page.
  public var refocusItemID: String?
  /// The listing is being read again from the start; the items shown stay
  /// until its first page replaces them.
  public private(set) var relisting = false

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
  /// Asks for the listing again from its start (`relisting`).
  public mutating func startRelisting() {
    relisting = true
    loadingOffset = 0
  }

  public mutating func receive(_ page: Page) {
    if relisting {
      relisting = false
      items = []
      loadedIDs = []
      sections = []
      prefetched = nil
      nextOffset = baseOffset
      days = nil
    }
    nextOffset = page.nextOffset ?? nextOffset + page.items.count
    if let newNote = page.note, newNote != note {
      note = newNote
      noteShown = false
    }
    // A page of ids already shown means the source repeats itself (it
    // ignores the offset): asking on would loop forever.
    let bringsNothingNew = page.items.allSatisfy { loadedIDs.contains($0.id) }
    hasMore = page.hasMore && !bringsNothingNew
    total = page.total
    if let pageDays = page.days { days = pageDays }
    loadingOffset = nil
    error = nil
    if bringsNothingNew && !items.isEmpty {
      // Nothing to offer behind Load-more, and its total cannot be right.
      revealOnArrival = false
      seeksEnd = false
      total = items.count
      return
    }
    if items.isEmpty || revealOnArrival || seeksEnd || seekItem != nil {
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
      extendSections(with: item)
    }
  }

  /// Counts the item just appended into the last section, or starts one.
  private mutating func extendSections(with item: PhotoItem) {
    let day = item.taken?.day
    if let last = sections.last, last.day == day {
      sections[sections.count - 1].count += 1
    } else {
      sections.append(ItemSection(day: day, start: items.count - 1, count: 1))
    }
  }

  public mutating func fail(_ message: String) {
    loadingOffset = nil
    relisting = false
    revealOnArrival = false
    seeksEnd = false
    seekItem = nil
    error = message
  }

  public mutating func clampFocus() {
    focus = min(max(0, focus), max(0, cellCount - 1))
  }
}

/// A run of consecutive items taken on one day (`day` nil: undated).
public struct ItemSection: Hashable, Sendable {
  public var day: Int?
  /// Index of the first item in `Scope.items`.
  public var start: Int
  public var count: Int
}

extension Scope {
  /// There are items before the window (a far jump moved it).
  public var hasNewer: Bool { baseOffset > 0 }

  /// Starts the window afresh at listing offset `offset` (a far jump, End
  /// on a long timeline): what was loaded is dropped, the day counts kept.
  public mutating func moveWindow(to offset: Int, generation: Int) {
    self.generation = generation
    items = []
    loadedIDs = []
    sections = []
    prefetched = nil
    baseOffset = offset
    nextOffset = offset
    hasMore = true
    loadingOffset = nil
    loadingNewerOffset = nil
    revealOnArrival = false
    seeksEnd = false
    focus = 0
    scrollRow = 0
  }

  /// A page from before the window, put in front of it; the focus stays
  /// on the same item. Returns how many items were added.
  @discardableResult
  public mutating func prepend(_ page: Page, from offset: Int) -> Int {
    loadingNewerOffset = nil
    let fresh = page.items.filter { !loadedIDs.contains($0.id) }
    for item in fresh { loadedIDs.insert(item.id) }
    let old = items
    baseOffset = offset
    focus += fresh.count
    // Sections are rebuilt: the new items may join the first day.
    items = []
    sections = []
    for item in fresh + old {
      items.append(item)
      extendSections(with: item)
    }
    return fresh.count
  }
}
