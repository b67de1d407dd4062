/// The state of the whole UI as one value. `update` changes it, `render`
/// draws it; neither does any I/O.
public struct AppState: Hashable, Sendable {
  public var sources: [SourceSummary]
  public var activeSource: Int
  /// A navigation stack of scopes per source; the last is on screen.
  public var scopeStacks: [[Scope]]
  public var selection = Selection()
  public var options: AppOptions
  /// The modes opened over the grid, the last on top: each takes the keys
  /// from the one below, and going back (Esc) leaves the top one. The grid
  /// is the floor, never on the stack (`AppState+Modes`).
  public internal(set) var modeStack: [AnyMode] = [] {
    // Facts and scores are read for what a preview or compare shows; back
    // on the grid they go, so a long session keeps none it no longer shows.
    didSet { if modeStack.isEmpty && !(facts.isEmpty && sharpness.isEmpty) { forgetModeReads() } }
  }
  var nextModeID = 1
  public var notice: Notice?
  public var size: TerminalSize
  public var sizeLevel = GridLayout.defaultSizeLevel
  /// Set by the first key or click; automatic choices stop then.
  public var hasInteracted = false
  /// The user chose the starting source (--source): never switch away alone.
  public var keepsStartingSource = false
  /// Thumbnails of the tiles on screen and of those prefetched near it.
  public var thumbnails: [ImageRequest.Key: ThumbnailState] = [:]
  /// Remote pictures being fetched: bytes received and expected (the
  /// preview shows a bar while a large original arrives).
  public var fetchProgress: [ImageRequest.Key: FetchProgress] = [:]
  /// Facts of photos shown in the preview or compare, as read (a few at a
  /// time; forgotten back on the grid).
  public var facts: [ImageReference: PhotoFacts] = [:]
  /// Sharpness scores of compared photos (nil while scoring, or unreadable).
  public var sharpness: [ImageReference: Double?] = [:]
  /// Sources that wait for the user to sign in, with their forms; the bar
  /// marks them with *.
  public var signInNeeded: [Int: AuthPrompt] = [:]
  /// Keys typed before the first page arrived, or past the last loaded
  /// photo before the next, applied in order once it does (as fzf keeps a
  /// query typed while it starts).
  var typedAhead: [Key] = []
  /// The rest of a move that ran past the loaded photos.
  var carriedMove: CarriedMove?
  /// Picks of an unfinished run that R (or --resume) restores.
  public var resumeOffer: ResumeOffer?
  /// Picked files found gone at a confirm: the tray marks them.
  public var missingPicks: Set<SelectionKey> = []
  /// What the last confirm handed out, once it finished: the picks behind
  /// `.finish(.picked)`'s paths, in the same order (an embedding host gets
  /// their sources and ids).
  public internal(set) var confirmed: PickCheck?
  /// The gone files the user was told about: Enter again prints the rest.
  var acknowledgedMissing: Set<PathBytes> = []
  /// The scope they were typed for: on any other they are dropped.
  var typedAheadScope: Int?
  /// What sources say of work they do by themselves ("Indexing 1,200 of
  /// ~5,000"), by source index; shown while that source is.
  public var sourceStatus: [Int: String] = [:]
  var nextGeneration = 1

  public init(sources: [SourceSummary], activeSource: Int = 0, options: AppOptions, size: TerminalSize) {
    self.sources = sources
    self.activeSource = min(max(0, activeSource), max(0, sources.count - 1))
    self.scopeStacks = Array(repeating: [], count: sources.count)
    self.options = options
    self.size = size
  }

  public var layout: GridLayout {
    // A timeline's scale takes the right edge.
    var gridSize = size
    if TimelineScaleView.isShown(for: scope, size: size) { gridSize.width -= TimelineScaleView.width + 1 }
    return GridLayout(size: gridSize, sizeLevel: sizeLevel)
  }

  /// Where the scope's cells sit in rows, with day headers when grouped.
  public var gridRows: GridRows {
    guard let scope else { return GridRows(scope: Scope(kind: .root, label: "", generation: 0), columns: 1) }
    return GridRows(scope: scope, columns: layout.columns)
  }

  /// The scope on screen.
  public var scope: Scope? {
    get { scopeStacks.indices.contains(activeSource) ? scopeStacks[activeSource].last : nil }
    set {
      guard let newValue, scopeStacks.indices.contains(activeSource), !scopeStacks[activeSource].isEmpty else { return }
      scopeStacks[activeSource][scopeStacks[activeSource].count - 1] = newValue
    }
  }

  /// The item under the focus, if the focus is on an item.
  public var focusedItem: PhotoItem? {
    guard let scope, case .item(let index)? = scope.cell(at: scope.focus) else { return nil }
    return scope.items[index]
  }

  func selectionKey(for item: PhotoItem) -> SelectionKey {
    SelectionKey(sourceID: sources[activeSource].id, itemID: item.id)
  }

  mutating func takeGeneration() -> Int {
    defer { nextGeneration += 1 }
    return nextGeneration
  }
}
