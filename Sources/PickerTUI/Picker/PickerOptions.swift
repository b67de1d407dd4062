import Foundation

/// How a ``Picker`` looks and behaves: limits, thumbnails, colours, paging,
/// and what happens to remote picks.
///
/// Every field has the default the `picker-tui` command uses, so
/// `PickerOptions()` is a complete configuration:
///
///     var options = PickerOptions()
///     options.maximum = 3
///     options.thumbnails = .symbols
public struct PickerOptions: Sendable {
  /// What the picker does with photos picked from remote sources.
  public enum RemotePicks: Sendable, Hashable {
    /// Downloaded before `run()` returns, with a progress bar; the folder
    /// (created if needed) or nil for `$XDG_CACHE_HOME/picker-tui/picked`.
    case download(into: String?)
    /// Not fetched: the picked item carries its URL and no path.
    case urlsOnly
  }

  /// How camera RAW files (DNG, CR2, NEF, ...) are read.
  public enum CameraRAW: Sendable, Hashable {
    /// Not read: their tiles show an error. The default, because the LibRaw
    /// some systems ship can crash on a damaged file.
    case off
    /// Read in a helper process: `executable` started with
    /// ``Picker/helperArgument`` (a host that calls
    /// ``Picker/runHelperIfAsked()`` first thing in `main` passes
    /// `"/proc/self/exe"`). A crash there is an error on one tile.
    case helper(executable: String)
  }

  /// Pick at most this many photos (nil: no limit).
  public var maximum: Int?
  /// Refuse to confirm fewer than this many photos (nil: one).
  public var minimum: Int?
  /// Pixel thumbnails where the terminal can draw them (`.auto`), a given
  /// protocol, block symbols, or none.
  public var thumbnails: ThumbnailMode = .auto
  /// Colours: nil for as many as the terminal has (none under `NO_COLOR`).
  public var colors: ColorDepth?
  /// Items per page, rounded up to whole grid rows (nil: a screenful).
  public var pageSize: Int?
  /// The index of the source shown first (nil: the first).
  public var startingSource: Int?
  public var remotePicks: RemotePicks = .download(into: nil)
  public var cameraRAW: CameraRAW = .off
  /// Where `TERM`, `NO_COLOR`, the XDG folders and the rest are read from.
  public var environment: [String: String] = ProcessInfo.processInfo.environment
  /// Where libraries' messages (a damaged image's warnings) go while the
  /// screen is up, instead of the screen: a descriptor, or nil for nowhere.
  public var messagesDescriptor: Int32?
  /// Keeps the selection on disk while the picker runs, so a crash or a
  /// hang-up loses nothing (nil: not kept). After a pick the host removes it
  /// (`JournalFile.remove()`) once the picks are safe.
  public var journal: JournalFile?
  /// Where searches kept with Enter are remembered for Up (nil: not kept).
  public var searchHistory: SearchHistoryFile?
  /// Restores the journal's picks at start instead of offering them.
  public var resumesJournal = false
  /// Icons for the source bar, by source id, instead of the sources' own
  /// (one or two columns; an ASCII stand-in is drawn where the locale is
  /// not UTF-8).
  public var sourceIcons: [String: String] = [:]
  /// The keys of every mode (`KeyMaps.standard(with:)` applies a config's
  /// rebindings).
  public var keys: KeyMaps = .standard
  /// Near-identical shots in listings by date show as one stack, grouped
  /// by `stackingRule` (`S` turns it off and on while picking).
  public var stacksPhotos = true
  public var stackingRule = StackingRule()
  /// How stars, rejects and labels are written as XMP (`[xmp]`).
  public var xmp = XMPWriteOptions()
  /// A folder chooser: Enter on a folder ends the run with its path.
  public var choosesFolders = false

  /// The `picker-tui` command's: --source keeps the starting source shown
  /// even when another has the photos.
  package var keepsStartingSource = false
  /// The command prints picks one a line (no -0): a path with a newline in
  /// it is refused at confirm, with a word about -0.
  package var printsLines = false

  public init() {}
}
