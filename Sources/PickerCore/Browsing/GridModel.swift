/// Where the user is in the grid, the floor under every mode: which source
/// is shown, the scopes opened in each, the tile size, and the keys and
/// moves waiting for photos still to arrive. `AppState` keeps what every
/// mode shares; this is the grid's own.
public struct GridModel: Hashable, Sendable {
  /// The source on screen (its tab in the bar).
  public var activeSource: Int
  /// A navigation stack of scopes per source; the last is on screen.
  public var scopeStacks: [[Scope]]
  public var sizeLevel = GridLayout.defaultSizeLevel
  /// Set by the first key or click; automatic choices stop then.
  public var hasInteracted = false
  /// The user chose the starting source (--source): never switch away alone.
  public var keepsStartingSource = false
  /// `H`: listings leave rejected photos out (`PageRequest.hidesRejected`).
  public var hidesRejected = false
  /// Where `m` marked a photo: `M` selects from it to the focus.
  public var mark: GridMark?
  /// Keys typed before the first page arrived, or past the last loaded
  /// photo before the next, applied in order once it does (as fzf keeps a
  /// query typed while it starts).
  var typedAhead: [Key] = []
  /// The scope they were typed for: on any other they are dropped.
  var typedAheadScope: Int?
  /// The rest of a move that ran past the loaded photos.
  var carriedMove: CarriedMove?
  /// The next scope's (or download's) generation: answers for an older
  /// one are told apart and dropped.
  private var nextGeneration = 1

  init(sourceCount: Int, activeSource: Int) {
    self.activeSource = min(max(0, activeSource), max(0, sourceCount - 1))
    self.scopeStacks = Array(repeating: [], count: sourceCount)
  }

  /// The scope on screen.
  public var scope: Scope? {
    get { scopeStacks.indices.contains(activeSource) ? scopeStacks[activeSource].last : nil }
    set {
      guard let newValue, scopeStacks.indices.contains(activeSource), !scopeStacks[activeSource].isEmpty else { return }
      scopeStacks[activeSource][scopeStacks[activeSource].count - 1] = newValue
    }
  }

  mutating func takeGeneration() -> Int {
    defer { nextGeneration += 1 }
    return nextGeneration
  }
}
