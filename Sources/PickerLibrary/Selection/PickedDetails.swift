/// What the listing said of a picked photo when it was picked: printed by
/// `--format` without reading the file again (the library index, when it
/// has the photo, says more: `IndexedRecord`).
public struct PickedDetails: Hashable, Sendable {
  public var taken: TakenDate?
  public var isVideo = false
  public var videoSeconds: Double?
  public var isLive = false
  public var copies: [PathBytes] = []
  public var culling = Culling.none
  /// A remote listing's size.
  public var listedSize: PixelSize?
  /// The name of the source it was picked in.
  public var source = ""
  /// The library index's row it was listed from (`PhotoItem.indexID`).
  public var indexID: Int64?

  public init() {}

  public init(_ item: PhotoItem, source: String) {
    taken = item.taken
    isVideo = item.isVideo
    videoSeconds = item.videoSeconds
    isLive = item.isLive
    copies = item.copies
    culling = item.culling
    listedSize = item.listedSize
    self.source = source
    indexID = item.indexID
  }
}
