/// What a source can do beyond listing; the UI offers only what is here.
public struct SourceCapabilities: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Listings come in pages and `Page.hasMore` may be true.
  public static let paging = SourceCapabilities(rawValue: 1 << 0)
  /// `search(_:in:page:)` is implemented.
  public static let search = SourceCapabilities(rawValue: 1 << 1)
  /// Items may be folders (albums) to open.
  public static let albums = SourceCapabilities(rawValue: 1 << 2)
  /// The source needs a sign-in (`authPrompt`, `authenticate`).
  public static let auth = SourceCapabilities(rawValue: 1 << 3)
  /// `PageRequest.sort` is honoured.
  public static let sorting = SourceCapabilities(rawValue: 1 << 4)
  /// Listings come newest first by date taken, items carry `taken`, and
  /// the first page brings `Page.days`: the grid groups it by day and the
  /// date keys jump in it.
  public static let timeline = SourceCapabilities(rawValue: 1 << 5)
  /// `items(in:)` lists places as folders (`PlaceFolder`): the Places scope.
  public static let places = SourceCapabilities(rawValue: 1 << 6)
}
