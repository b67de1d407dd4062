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
  /// How verdicts are written as XMP (the config's `[xmp]`).
  public var xmp = XMPWriteOptions()
  /// A folder chooser (the desktop's dialog asked for a folder): Enter on
  /// a folder chooses it, Space opens it.
  public var choosesFolders = false

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
