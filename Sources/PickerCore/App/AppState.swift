/// What the UI needs to know of a source, without the source itself, so the
/// state stays a plain value.
public struct SourceSummary: Hashable, Sendable {
  public var id: String
  public var title: String
  public var icon: String
  public var capabilities: SourceCapabilities
  public var rootLabel: String

  public init(id: String, title: String, icon: String, capabilities: SourceCapabilities, rootLabel: String) {
    self.id = id
    self.title = title
    self.icon = icon
    self.capabilities = capabilities
    self.rootLabel = rootLabel
  }

  public init(_ source: any PhotoSource) {
    self.init(
      id: source.id, title: source.title, icon: source.icon,
      capabilities: source.capabilities, rootLabel: source.rootLabel)
  }
}

/// Settings from the command line that the UI applies.
public struct AppOptions: Hashable, Sendable {
  public var limits: SelectionLimits
  /// Items per page as asked with --page-size (rounded up to whole rows).
  public var pageSize: Int?
  /// Output is NUL-separated (-0), so any path can be printed.
  public var print0: Bool
  /// The keys of every mode, the grid's first.
  public var keys: KeyMaps
  /// False with --thumbnails off: tiles show captions only.
  public var showsThumbnails: Bool
  /// The colours thumbnails are rendered for: the terminal's.
  public var colorDepth: ColorDepth
  /// Set when the terminal draws pixels: thumbnails are encoded for it.
  public var pixelFormat: PixelFormat?
  /// --print-urls: remote picks are printed as URLs, not downloaded.
  public var printsURLs = false
  /// The user's locale is not UTF-8 (LANG=C): the source icons are drawn
  /// as ASCII stand-ins.
  public var asciiIcons = false
  /// Icons given in the config (`icon = "…"`), by source id: they win over
  /// the source's own.
  public var sourceIcons: [String: String] = [:]
  /// Today's day number (`CivilDate.dayNumber`), for "yesterday" and the
  /// like: the state reads no clock.
  public var today = 0
  /// Near-identical shots in listings by date show as one stack (`S`
  /// turns it off and on), grouped by this rule.
  public var stacksPhotos = true
  public var stackingRule = StackingRule()

  public init(
    limits: SelectionLimits = SelectionLimits(), pageSize: Int? = nil, print0: Bool = false,
    keys: KeyMaps = .standard, showsThumbnails: Bool = true, colorDepth: ColorDepth = .palette256
  ) {
    self.limits = limits
    self.pageSize = pageSize
    self.print0 = print0
    self.keys = keys
    self.showsThumbnails = showsThumbnails
    self.colorDepth = colorDepth
  }
}

/// Where keys go.
public enum Mode: Hashable, Sendable {
  case grid
  /// The picked tray has the focus, on this entry.
  case tray(focus: Int)
  case help
  /// The search prompt, with what has been typed.
  case search(query: String)
  /// The go-to-date prompt (`:`), with what has been typed.
  case goToDate(query: String)
  /// The sign-in form of a source.
  case signIn(SignInForm)
  /// Confirmed; remote picks are being downloaded.
  case downloading(DownloadProgress)
  /// The focused photo full screen, with its facts panel or without.
  case preview(showsFacts: Bool)
  /// Photos side by side.
  case compare(CompareState)
}

/// A one-line message at the bottom; cleared by the next key.
public struct Notice: Hashable, Sendable {
  public var text: String
  public var isError: Bool

  public init(_ text: String, isError: Bool = false) {
    self.text = text
    self.isError = isError
  }
}

/// How the picker ends.
public enum Outcome: Hashable, Sendable {
  /// Confirmed: print these paths, exit 0.
  case picked([PathBytes])
  /// Esc, q or Ctrl-C: print nothing, exit 130.
  case cancelled
  /// No source had anything to show: exit 1.
  case nothingToPick
}

/// A page to fetch from a source; its result comes back as an event with the
/// same value, so it can be matched to its scope.
public struct PageLoad: Hashable, Sendable {
  public var sourceIndex: Int
  public var scope: Scope.Kind
  public var request: PageRequest
  public var generation: Int
}

/// Work `update` asks the event loop to do.
public enum Effect: Hashable, Sendable {
  case load(PageLoad)
  /// Sign in to a source with the form's answers.
  case signIn(sourceIndex: Int, answers: [String: String])
  /// Forget a source's credentials.
  case signOut(sourceIndex: Int)
  /// Fetch the remote picks, then report their local paths.
  case download(DownloadPlan)
  case cancelDownload
  /// The thumbnails still missing on and near the screen, most urgent
  /// first; replaces the previous list (what left it is cancelled).
  case thumbnails([ImageRequest])
  /// Read a photo's facts (size, format, EXIF) for the preview.
  case readFacts(ImageReference)
  /// Score a photo's sharpness (compare shows it), from a small decode.
  case scoreSharpness(ImageReference)
  /// Ask a source to look for changes by itself (Photos rescans its roots).
  case refresh(sourceIndex: Int)
  /// See which of the local files about to be printed still exist.
  case checkPicked(PickCheck)
  case finish(Outcome)
}

/// Bytes of a fetch: received, and expected when the server said.
public struct FetchProgress: Hashable, Sendable {
  public var received: Int64
  public var expected: Int64?

  public init(received: Int64, expected: Int64?) {
    self.received = received
    self.expected = expected
  }
}

/// A photo tile's thumbnail.
public enum ThumbnailState: Hashable, Sendable {
  case loading
  case ready(Thumbnail)
  case failed(String)
}

/// Everything that can happen to the UI.
public enum AppEvent: Hashable, Sendable {
  case start
  case key(Key)
  case mouse(MouseEvent)
  case resize(TerminalSize)
  case pageLoaded(PageLoad, Page)
  case pageFailed(PageLoad, String)
  /// The source needs the user to sign in (again) before it can list.
  case pageNeedsSignIn(PageLoad, String, AuthPrompt)
  /// A sign-in attempt ended; nil error means signed in.
  case signInFinished(sourceIndex: Int, error: String?)
  case signedOut(sourceIndex: Int)
  /// What a source can do changed (a command source said so when it started).
  case sourceUpdated(sourceIndex: Int, SourceSummary)
  case downloadProgress(DownloadProgress)
  /// Every output's local path (or URL), in selection order.
  case downloadFinished(id: Int, [PathBytes])
  case downloadFailed(id: Int, DownloadFailure)
  case thumbnailLoaded(ImageRequest.Key, ThumbnailResult)
  /// A source said something unasked: its status, or that it changed.
  case sourceChanged(sourceIndex: Int, SourceChange)
  /// What was read of a photo for the preview's facts panel.
  case factsLoaded(ImageReference, PhotoFacts)
  /// A photo's sharpness (`PhotoSignature.sharpness`); nil when unreadable.
  case sharpnessScored(ImageReference, Double?)
  /// Bytes of a remote picture received so far, and expected when known.
  case thumbnailProgress(ImageRequest.Key, received: Int64, expected: Int64?)
  /// The files of a confirm were checked; these no longer exist.
  case pickedChecked(PickCheck, missing: Set<PathBytes>)
}

/// The state of the whole UI as one value. `update` changes it, `render`
/// draws it; neither does any I/O.
public struct AppState: Hashable, Sendable {
  public var sources: [SourceSummary]
  public var activeSource: Int
  /// A navigation stack of scopes per source; the last is on screen.
  public var stacks: [[Scope]]
  public var selection = Selection()
  public var options: AppOptions
  public var mode: Mode = .grid
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
  /// Facts of photos shown in the preview, as read (a few at a time).
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
  /// The preview zoomed in (nil: the whole photo fitted).
  public var loupe: Loupe?
  /// A zoom asked for before the photo's size was read.
  var pendingZoom: PreviewAction?
  /// Where the last press or drag in the preview was, in cells.
  var loupeDragFrom: LoupeDragPoint?
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
  /// What the last `.thumbnails` effect asked for (not asked again).
  var thumbnailDemand: [ImageRequest] = []
  /// What sources say of work they do by themselves ("Indexing 1,200 of
  /// ~5,000"), by source index; shown while that source is.
  public var sourceStatus: [Int: String] = [:]
  var nextGeneration = 1

  public init(sources: [SourceSummary], activeSource: Int = 0, options: AppOptions, size: TerminalSize) {
    self.sources = sources
    self.activeSource = min(max(0, activeSource), max(0, sources.count - 1))
    self.stacks = Array(repeating: [], count: sources.count)
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
    get { stacks.indices.contains(activeSource) ? stacks[activeSource].last : nil }
    set {
      guard let newValue, stacks.indices.contains(activeSource), !stacks[activeSource].isEmpty else { return }
      stacks[activeSource][stacks[activeSource].count - 1] = newValue
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
