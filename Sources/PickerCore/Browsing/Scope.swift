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
    /// A stack of near-identical shots opened like an album; its photos
    /// came with it, nothing is asked of the source.
    case stack(coverID: String)
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
  /// End was the last key: whatever arrives before the next key (a page,
  /// a listing read again after a rescan or the stacks' signatures, a
  /// grown total), the focus goes back to the listing's last photo.
  public var holdsEnd = false
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
  /// Near-identical shots in a row are one entry (a `PhotoStack`); nil:
  /// every photo is an entry of its own. Set with `restack(_:)`.
  public private(set) var stacking: StackingRule?
  /// Where each entry of `items` starts in the listing, counted from
  /// `baseOffset`: a stack takes as many places as it has photos.
  public private(set) var entryStarts: [Int] = []
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
  /// The source said its listing changed while this scope could not be
  /// listed again (busy with a page, or under another scope): it is, once
  /// it can.
  public var needsRelist = false

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
    needsRelist = false
    // The listing is asked for again from the window's start: a moved
    // window's is not 0, and a page not waited for is dropped as stale.
    loadingOffset = baseOffset
    // A page fetched ahead belongs to the old listing.
    prefetched = nil
  }

  public mutating func receive(_ page: Page) {
    // A folder, a search or a place just opened: the focus goes to what
    // was opened, not to Back (Enter at once would leave it again).
    let opensOnFirstItem = !isRoot && !relisting && !hasLoadedOnce && focus == 0
    defer { if opensOnFirstItem && !items.isEmpty && focus == 0 { focus = 1 } }
    if relisting {
      relisting = false
      items = []
      entryStarts = []
      loadedIDs = []
      sections = []
      prefetched = nil
      nextOffset = baseOffset
      // Only a listing's first page brings its days: a moved window keeps
      // the ones it had (Home, `:` and the headers need them).
      if baseOffset == 0 { days = nil }
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
      total = baseOffset + loadedPhotoCount
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
      append(item)
    }
  }

  /// Adds a listed photo at the end: into the last entry's stack when it
  /// joins it, else as an entry of its own.
  private mutating func append(_ item: PhotoItem) {
    if let stacking, let last = items.last, stacking.joins(item, after: last) {
      // The same entry, grown: its day (the first member's) is unchanged.
      items[items.count - 1] = PhotoStack.entry(for: last.photos + [item])
      return
    }
    entryStarts.append(loadedPhotoCount)
    items.append(item)
    extendSections(with: item)
  }

  /// Photos loaded (a stack counts each of its members).
  public var loadedPhotoCount: Int {
    guard let start = entryStarts.last, let last = items.last else { return 0 }
    return start + last.photos.count
  }

  /// The listing offset of the entry at `index` in `items` (of its first photo).
  public func listingOffset(ofItem index: Int) -> Int {
    baseOffset + (index < entryStarts.count ? entryStarts[max(0, index)] : loadedPhotoCount)
  }

  /// The entry holding the photo at listing offset `offset`, when loaded.
  public func itemIndex(atListingOffset offset: Int) -> Int? {
    let relative = offset - baseOffset
    guard relative >= 0, relative < loadedPhotoCount else { return nil }
    // The last entry starting at or before it.
    var low = 0, high = entryStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if entryStarts[middle] <= relative { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The entry showing the photo with this id (alone or in a stack).
  public func itemIndex(ofPhotoID id: String) -> Int? {
    items.firstIndex { $0.id == id || $0.stack?.members.contains { $0.id == id } == true }
  }

  /// Stacks the loaded photos by `rule` (nil: one entry each), the focus
  /// kept on the photo it was on.
  public mutating func restack(_ rule: StackingRule?) {
    guard rule != stacking else { return }
    stacking = rule
    rebuildEntries(from: items.flatMap(\.photos))
  }

  /// Entries, starts and day sections made again from the photos in
  /// order; the focus stays on the entry holding the photo it was on.
  private mutating func rebuildEntries(from photos: [PhotoItem]) {
    let leading = isRoot ? 0 : 1
    let wasOnLoadMore = focus - leading >= items.count
    // A stack's own id is its cover's: the focus stays on that photo.
    let focusedPhoto = items.indices.contains(focus - leading) ? items[focus - leading].id : nil
    items = []
    entryStarts = []
    sections = []
    for photo in photos { append(photo) }
    if let focusedPhoto, let index = itemIndex(ofPhotoID: focusedPhoto) {
      focus = index + leading
    } else if wasOnLoadMore {
      focus = items.count + leading
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
    if let place = item.placeName {
      sections[sections.count - 1].placeCounts[place, default: 0] += item.stack?.count ?? 1
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
  /// Its items' places (`PhotoItem.placeName`) and how many were taken in
  /// each: a day's header names them when the source gave no day counts.
  public var placeCounts: [String: Int] = [:]

  init(day: Int?, start: Int, count: Int) {
    self.day = day
    self.start = start
    self.count = count
  }

  /// The places, most photos first.
  public var places: [String] {
    placeCounts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map(\.key)
  }
}

extension Scope {
  /// There are items before the window (a far jump moved it).
  public var hasNewer: Bool { baseOffset > 0 }

  /// Starts the window afresh at listing offset `offset` (a far jump, End
  /// on a long timeline): what was loaded is dropped, the day counts kept.
  public mutating func moveWindow(to offset: Int, generation: Int) {
    self.generation = generation
    items = []
    entryStarts = []
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
    // A listing asked for again belongs to the window left behind.
    relisting = false
    refocusItemID = nil
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
    let before = items.count
    baseOffset = offset
    // Rebuilt: the new photos may join the first day, or its first stack.
    rebuildEntries(from: fresh + items.flatMap(\.photos))
    return items.count - before
  }
}
