/// Where an image's bytes can be fetched from.
///
/// Loaders in the imaging pipeline each say which references they handle.
public enum ImageReference: Hashable, Sendable {
  case file(PathBytes)
  case url(String)
  /// A URL a remote source listed; that source fetches it (with its
  /// credentials, or through its own protocol).
  case remote(source: String, url: String)
}

/// One entry a source lists: a photo, or a folder (album) to open.
public struct PhotoItem: Hashable, Sendable, Identifiable {
  public enum Kind: Hashable, Sendable {
    case photo
    /// An album or sub-folder; `count` is the number of entries when known.
    case folder(count: Int?)
  }

  /// Unique within its source; with the source's id it keys the selection.
  public var id: String
  public var kind: Kind
  /// The name shown in the caption (raw; sanitised when drawn).
  public var title: [UInt8]
  public var thumbnail: ImageReference?
  public var original: ImageReference?
  /// What is printed on stdout when the photo is picked (raw bytes).
  public var outputPath: PathBytes?
  /// A listed file that no longer exists: shown, but it cannot be picked.
  public var isMissing: Bool
  /// What the source said of the photo (a remote listing's size and date),
  /// shown in the preview's facts when the file itself cannot be read.
  public var listedSize: PixelSize?
  public var listedDate: String?
  /// When the photo was taken, when the source knows: listings in date
  /// order are grouped by day on it.
  public var taken: TakenDate?
  /// What stacking compares (listings in date order): the picture's
  /// signature when the source has read it, and a burst id the camera gave.
  public var signature: PhotoSignature?
  public var burstID: String?
  /// Set when this entry stands for a stack of near-identical shots: it is
  /// the stack's cover (its sharpest photo) and holds every member.
  public var stack: PhotoStack?
  /// Byte-identical copies of this photo elsewhere, not listed themselves
  /// (the timeline shows a photo once); the tile says how many.
  public var copies: [PathBytes] = []
  /// A Live Photo or a Motion Photo: the tile says LIVE.
  public var isLive = false
  /// A video (a frame is its thumbnail; the tile says ▶ and its length).
  public var isVideo = false
  /// A video's length in seconds, when its header said.
  public var videoSeconds: Double?
  /// What a day header calls the place it was taken (its city, else its
  /// country), from a source that reads positions but gives no
  /// `Page.days` (Folders sorted by date).
  public var placeName: String?
  /// Stars, reject and colour label as the source read them (the app
  /// shows its own edits over them: `CullingEdits`).
  public var culling = Culling.none
  /// The library index's row, for a photo listed from it: `--format json`
  /// reads its record by id.
  public var indexID: Int64?

  public init(
    id: String, kind: Kind, title: [UInt8], thumbnail: ImageReference? = nil,
    original: ImageReference? = nil, outputPath: PathBytes? = nil, isMissing: Bool = false
  ) {
    self.id = id
    self.kind = kind
    self.title = title
    self.thumbnail = thumbnail
    self.original = original
    self.outputPath = outputPath
    self.isMissing = isMissing
  }

  /// A stack's tile: Enter opens it like an album.
  public var isStack: Bool { stack != nil }

  public var isFolder: Bool {
    if case .folder = kind { return true }
    return false
  }

  /// Whether the user may put this item in the selection.
  public var isPickable: Bool { !isFolder && !isMissing && pickedOutput != nil }

  /// What picking this item yields: a local path, or an original to download.
  public var pickedOutput: PickedOutput? {
    if let outputPath { return .local(outputPath) }
    if case .remote(let source, let url)? = original { return .remote(source: source, url: url) }
    return nil
  }
}
