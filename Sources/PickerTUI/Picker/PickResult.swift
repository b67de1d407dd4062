/// How a ``Picker`` run ended.
public enum PickResult: Sendable, Hashable {
  /// The user confirmed these photos, in the order they were picked.
  case picked([PickedItem])
  /// Esc, q or Ctrl-C: nothing was picked.
  case cancelled
  /// No source had anything to show.
  case nothingToPick
  /// A signal (SIGTERM, SIGHUP, SIGINT sent by `kill`) ended the picker; the
  /// terminal is restored and the host's handlers are back, so the host can
  /// act on it (the `picker-tui` command exits with 128 + the number).
  case interrupted(signal: Int32)
}

/// A photo the user picked.
public struct PickedItem: Sendable, Hashable {
  /// The ``PhotoSource/id`` of the source it came from.
  public var sourceID: String
  /// The ``PhotoItem/id`` the source gave it.
  public var itemID: String
  /// The name the user saw, as raw bytes (file names need not be UTF-8).
  public var titleBytes: [UInt8]
  /// A local file: the source's own path, or where a remote original was
  /// downloaded. Nil for a remote pick with ``PickerOptions/RemotePicks/urlsOnly``.
  public var path: PathBytes?
  /// Where a remote original lives; nil for local files.
  public var url: String?
  /// What the listing said of it when it was picked (the date taken, a
  /// video's length, a Live Photo, copies, the verdict): what
  /// `--format json` prints without reading the file again.
  public var details: PickedDetails?

  public init(sourceID: String, itemID: String, titleBytes: [UInt8], path: PathBytes?, url: String?) {
    self.sourceID = sourceID
    self.itemID = itemID
    self.titleBytes = titleBytes
    self.path = path
    self.url = url
  }

  /// The name the user saw, with bytes that are not UTF-8 replaced.
  public var title: String { String(decoding: titleBytes, as: UTF8.self) }
}

/// Why a ``Picker`` could not run. The terminal is as it was before.
public enum PickerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A picker needs at least one source.
  case noSources
  /// The terminal cannot be used: no /dev/tty, TERM unset or unknown, or a
  /// terminal that cannot move its cursor. The text says which and what to do.
  case terminal(String)
  /// ``PickerOptions/startingSource`` is not an index of the sources.
  case noSuchSource(Int)

  public var description: String {
    switch self {
    case .noSources: return "no photo sources to show"
    case .terminal(let reason): return reason
    case .noSuchSource(let index): return "no source number \(index)"
    }
  }
}
