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
}

/// Whether the user is signed in to a source.
public enum AuthStatus: Hashable, Sendable {
  case signedIn
  case signedOut
}

/// One field of a sign-in form.
public struct AuthField: Hashable, Sendable {
  public var name: String
  public var label: String
  /// Masked on screen and never logged.
  public var isSecret: Bool

  public init(name: String, label: String, isSecret: Bool = false) {
    self.name = name
    self.label = label
    self.isSecret = isSecret
  }
}

/// The form a source asks the user to fill in to sign in.
public struct AuthPrompt: Hashable, Sendable {
  public var title: String
  public var fields: [AuthField]

  public init(title: String, fields: [AuthField]) {
    self.title = title
    self.fields = fields
  }
}

/// The order a listing is asked for in.
public enum SortOrder: String, CaseIterable, Hashable, Sendable {
  case name
  case date

  /// The next order in the cycle the `s` key walks through.
  public var next: SortOrder {
    let all = SortOrder.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }
}

/// Which slice of a listing to return.
public struct PageRequest: Hashable, Sendable {
  public var offset: Int
  public var limit: Int
  public var sort: SortOrder

  public init(offset: Int, limit: Int, sort: SortOrder = .name) {
    self.offset = offset
    self.limit = limit
    self.sort = sort
  }
}

/// One page of a listing.
public struct Page: Hashable, Sendable {
  public var items: [PhotoItem]
  /// More items follow this page.
  public var hasMore: Bool
  /// The size of the whole listing, when the source knows it.
  public var total: Int?
  /// Something the user should know about the listing ("3 folders in the
  /// list skipped"), shown once in the footer when it changes.
  public var note: String?
  /// A timeline's photos per day, newest first, for the whole listing
  /// (given with the first page): the scale and the date jumps know the
  /// whole length before its rows are read.
  public var days: [DayCount]?
  /// Where the next page starts when it is not right after this page's
  /// items: a source that filters on its side skipped what it left out.
  public var nextOffset: Int?

  public init(items: [PhotoItem], hasMore: Bool, total: Int? = nil, note: String? = nil) {
    self.items = items
    self.hasMore = hasMore
    self.total = total
    self.note = note
  }
}

/// Identifies a folder (album) inside a source; nil stands for the root.
public typealias FolderID = String

/// Errors a source reports; the UI shows the message and keeps running.
public struct SourceError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  /// Set when the user must sign in (again): the form to show.
  public var signIn: AuthPrompt?
  public init(_ message: String, signIn: AuthPrompt? = nil) {
    self.message = message
    self.signIn = signIn
  }
  public var description: String { message }

  public static let searchUnsupported = SourceError("this source cannot search")
}

/// A place photos come from: a local folder, a list of paths, a web service,
/// or an external program.
///
/// Sources only list items. The core adds Back and Load-more cells, pages,
/// caches images and keeps the selection, the same way for every source, so a
/// simple source implements `items(in:page:)` and takes the defaults for the
/// rest.
public protocol PhotoSource: AnyObject, Sendable {
  /// Stable for the session; part of every selection key.
  var id: String { get }
  /// The name in the source bar.
  var title: String { get }
  /// A one-column glyph shown before the title.
  var icon: String { get }
  var capabilities: SourceCapabilities { get }
  /// The form to show when `authStatus()` says signed out.
  var authPrompt: AuthPrompt? { get }
  /// A label for the root scope in the breadcrumb.
  var rootLabel: String { get }

  func authStatus() async -> AuthStatus
  /// Signs in with the answers to `authPrompt`'s fields; throws with a
  /// message for the form's error line when they are refused.
  func authenticate(_ answers: [String: String]) async throws
  /// Forgets the credentials, in memory and on disk.
  func signOut() async
  /// Lists `folder` (nil: the root), one page at a time.
  func items(in folder: FolderID?, page: PageRequest) async throws -> Page
  /// Finds items matching `query` below `folder` (nil: the root).
  func search(_ query: String, in folder: FolderID?, page: PageRequest) async throws -> Page
  /// News the source gives by itself while the picker runs (an index
  /// filling in, its progress); nil when it gives none.
  func changes() -> AsyncStream<SourceChange>?
  /// Looks for changes in the background (Photos rescans its roots when it
  /// is shown again); what it finds comes through `changes()`.
  func refresh()
  /// The picker is done: end what the source started (a program, a scan).
  /// Blocking; called off the main thread, for every source at once.
  func stop()
}

/// What a source tells the picker unasked.
public enum SourceChange: Hashable, Sendable {
  /// A line for the status bar while work goes on; nil when it is done.
  case status(String?)
  /// Its listings have changed: what is shown should be listed again.
  case contentChanged
}

extension PhotoSource {
  public var icon: String { "▣" }
  public var capabilities: SourceCapabilities { [] }
  public var authPrompt: AuthPrompt? { nil }
  public var rootLabel: String { title }
  public func authStatus() async -> AuthStatus { .signedIn }
  public func authenticate(_ answers: [String: String]) async throws {}
  public func signOut() async {}
  public func search(_ query: String, in folder: FolderID?, page: PageRequest) async throws -> Page {
    throw SourceError.searchUnsupported
  }
  public func changes() -> AsyncStream<SourceChange>? { nil }
  public func refresh() {}
  public func stop() {}
}

extension Array {
  /// The slice a page request asks for, clamped to the array.
  func page(_ request: PageRequest) -> (items: ArraySlice<Element>, hasMore: Bool) {
    let start = Swift.min(Swift.max(request.offset, 0), count)
    let end = start + Swift.min(Swift.max(request.limit, 0), count - start)
    return (self[start..<end], end < count)
  }
}
