/// The state of the whole UI as one value. `update` changes it, `render`
/// draws it; neither does any I/O.
public struct AppState: Hashable, Sendable {
  public var sources: [SourceSummary]
  /// The grid under every mode: the source shown, its scopes, the size.
  public var grid: GridModel
  public var selection = Selection() {
    didSet { recountPickGroups() }
  }
  /// Photos selected together by one key (a day, a range, all listed):
  /// the tray says how many of each are still picked.
  public internal(set) var pickGroups: [PickGroup] = []
  /// The picks around a confirm: offered back, found gone, handed out.
  public var confirmFlow = ConfirmFlow()
  public var options: AppOptions
  /// The modes opened over the grid, the last on top (`ModeStack`).
  public internal(set) var modes = ModeStack() {
    // Facts and scores are read for what a preview or compare shows; back
    // on the grid they go.
    didSet { if modes.isEmpty && !readings.isEmpty { readings = PhotoReadings() } }
  }
  public var notice: Notice?
  public var size: TerminalSize
  /// Thumbnails of the tiles on screen and of those prefetched near it.
  public var thumbnails: [ImageRequest.Key: ThumbnailState] = [:]
  /// Remote pictures being fetched: bytes received and expected (the
  /// preview shows a bar while a large original arrives).
  public var fetchProgress: [ImageRequest.Key: FetchProgress] = [:]
  /// Facts and sharpness of the photos a preview or compare shows.
  public var readings = PhotoReadings()
  /// Stars, rejects and labels given in this run, and their undo.
  public var culling = CullingBook()
  /// Searches kept with Enter, oldest first (this run's and, read at the
  /// start, those of earlier runs): Up in search recalls them.
  public var searchHistory: [String] = []

  public init(sources: [SourceSummary], activeSource: Int = 0, options: AppOptions, size: TerminalSize) {
    self.sources = sources
    self.grid = GridModel(sourceCount: sources.count, activeSource: activeSource)
    self.options = options
    self.size = size
  }

  public var layout: GridLayout {
    // A timeline's scale takes the right edge.
    var gridSize = size
    if TimelineScaleView.isShown(for: scope, size: size) { gridSize.width -= TimelineScaleView.width + 1 }
    return GridLayout(size: gridSize, sizeLevel: grid.sizeLevel)
  }

  /// Where the scope's cells sit in rows, with day headers when grouped.
  public var gridRows: GridRows {
    guard let scope else { return GridRows(scope: Scope(kind: .root, label: "", generation: 0), columns: 1) }
    return GridRows(scope: scope, columns: layout.columns)
  }

  /// The scope on screen.
  public var scope: Scope? {
    get { grid.scope }
    set { grid.scope = newValue }
  }

  /// The item under the focus, if the focus is on an item.
  public var focusedItem: PhotoItem? {
    guard let scope, case .item(let index)? = scope.cell(at: scope.focus) else { return nil }
    return scope.items[index]
  }

  func selectionKey(for item: PhotoItem) -> SelectionKey {
    SelectionKey(sourceID: sources[grid.activeSource].id, itemID: item.id)
  }
}
