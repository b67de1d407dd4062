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
  /// A verdict given in the picker (stars, reject, label) to a photo at
  /// `path`, kept for its next listing before its XMP is written.
  func remember(_ culling: Culling, of path: PathBytes) async
  /// The picker is done: end what the source started (a program, a scan).
  /// Blocking; called off the main thread, for every source at once.
  func stop()
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
  public func remember(_ culling: Culling, of path: PathBytes) async {}
  public func stop() {}
}

extension Array {
  /// The slice a page request asks for, clamped to the array.
  package func page(_ request: PageRequest) -> (items: ArraySlice<Element>, hasMore: Bool) {
    let start = Swift.min(Swift.max(request.offset, 0), count)
    let end = start + Swift.min(Swift.max(request.limit, 0), count - start)
    return (self[start..<end], end < count)
  }
}
