import Foundation

/// A source served by a program of the user's, in any language, speaking
/// JSON-RPC 2.0 over its stdin and stdout (docs/custom-sources.md).
///
/// The program is started on first use and kept running; `initialize`
/// tells what it can do, `auth/status` and `auth/login` sign in (answers
/// saved after a success are replayed on the next start). Everything here
/// blocks a thread of its own; the async entry points hop onto one.
public final class CommandSource: PhotoSource, RemoteImageSource, @unchecked Sendable {
  public let id: String
  public let title: String
  private let connection: RPCConnection
  private let credentials: CredentialStore
  /// Held while the program starts and signs in, so calls arriving together
  /// do not start it twice.
  private let startLock = NSLock()
  private let lock = NSLock()
  private var readyGeneration = 0
  private var info = Info()

  private struct Info {
    var icon = "⚙"
    var search = true
    var auth = false
    /// Listings come newest first with `taken_at`: grouped by day.
    var timeline = false
    /// Fields of the sign-in form; set once the source says it needs one.
    var fields: [AuthField] = []
    var needsSignIn = false
  }

  public init(title: String, command: [String], timeout: Double = 10, credentials: CredentialStore, log: LogFile?) {
    self.id = "command:" + title
    self.title = title
    self.connection = RPCConnection(name: title, command: command, timeout: timeout, log: log)
    self.credentials = credentials
  }

  public var icon: String { lock.withLock { info.icon } }
  public var capabilities: SourceCapabilities {
    lock.withLock {
      var capabilities: SourceCapabilities = [.paging, .albums]
      if info.search { capabilities.insert(.search) }
      if info.auth { capabilities.insert(.auth) }
      if info.timeline { capabilities.insert(.timeline) }
      return capabilities
    }
  }
  public var authPrompt: AuthPrompt? {
    lock.withLock { info.auth ? AuthPrompt(title: "Sign in to \(title)", fields: info.fields) : nil }
  }

  // MARK: Lifecycle

  /// Starts the program if it is not running, and introduces the picker.
  private func ready() throws(SourceError) {
    startLock.lock()
    defer { startLock.unlock() }
    if let running = connection.runningGeneration, running == readyGeneration { return }
    let generation = try connection.start()
    let answer = try connection.call(
      "initialize", ["protocol": 1, "client": "picker-tui", "version": .string(pickerVersion)])
    var fresh = Info()
    fresh.icon = answer["icon"]?.string.flatMap { $0.isEmpty ? nil : String($0.prefix(1)) } ?? "⚙"
    fresh.search = answer["search"]?.bool ?? false
    fresh.auth = answer["auth"]?.bool ?? false
    fresh.timeline = answer["timeline"]?.bool ?? false
    lock.withLock { info = fresh }
    if fresh.auth { try signInWithSavedAnswers() }
    readyGeneration = generation
  }

  /// Asks whether the program is signed in; if not, replays the answers
  /// saved last time (or the environment's token).
  private func signInWithSavedAnswers() throws(SourceError) {
    let status = try connection.call("auth/status", [:])
    let fields = (status["fields"]?.array ?? []).compactMap { field -> AuthField? in
      guard let name = field["name"]?.string, !name.isEmpty else { return nil }
      return AuthField(name: name, label: field["label"]?.string ?? name, isSecret: field["secret"]?.bool ?? false)
    }
    lock.withLock { info.fields = fields }
    if status["authed"]?.bool == true { return }
    var authed = false
    if let answers = savedAnswers(fields: fields),
      let result = try? connection.call("auth/login", ["answers": .object(answers.mapValues(JSONValue.string))])
    {
      authed = result["authed"]?.bool == true
    }
    lock.withLock { info.needsSignIn = !authed }
  }

  private func savedAnswers(fields: [AuthField]) -> [String: String]? {
    if let token = credentials.environmentToken(for: title) {
      guard let field = fields.first(where: \.isSecret) ?? fields.first else { return nil }
      return [field.name: token]
    }
    return credentials.answers(for: title)
  }

  /// Ends the program (the `shutdown` notification, then signals).
  public func stop() { connection.stop() }

  // MARK: Requests

  /// A call after `ready`, with sign-in errors carrying this source's form.
  private func request(_ method: String, _ params: JSONValue) throws(SourceError) -> JSONValue {
    try ready()
    if lock.withLock({ info.needsSignIn }) { throw signInError() }
    do {
      return try connection.call(method, params)
    } catch {
      if error.signIn != nil {
        lock.withLock { info.needsSignIn = true }
        throw signInError(error.message)
      }
      throw error
    }
  }

  private func signInError(_ message: String? = nil) -> SourceError {
    SourceError(
      message ?? "sign in to \(title) to see its photos",
      signIn: authPrompt ?? AuthPrompt(title: "Sign in to \(title)", fields: []))
  }

  private func page(_ method: String, _ params: JSONValue) async throws -> Page {
    try await Self.onOwnThread { () throws(SourceError) -> Page in
      let answer = try self.request(method, params)
      do throws(SourceError) {
        return try RemoteListing.page(from: answer, sourceID: self.id, base: nil)
      } catch {
        throw SourceError("\(self.title): \(error.message)")
      }
    }
  }

  public func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    try await RemoteListing.skippingEmptyPages(page, title: title) { offset in
      try await self.page(
        "list",
        [
          "folder": folder.map(JSONValue.string) ?? .null, "offset": .number(Double(offset)),
          "limit": .number(Double(page.limit)),
        ])
    }
  }

  public func search(_ query: String, in folder: FolderID?, page: PageRequest) async throws -> Page {
    guard capabilities.contains(.search) else { throw SourceError.searchUnsupported }
    return try await RemoteListing.skippingEmptyPages(page, title: title) { offset in
      try await self.page(
        "search",
        ["query": .string(query), "offset": .number(Double(offset)), "limit": .number(Double(page.limit))])
    }
  }

  public func authStatus() async -> AuthStatus {
    (try? await Self.onOwnThread { () throws(SourceError) in
      try self.ready()
      return self.lock.withLock { self.info.needsSignIn } ? AuthStatus.signedOut : .signedIn
    }) ?? .signedOut
  }

  public func authenticate(_ answers: [String: String]) async throws {
    try await Self.onOwnThread { () throws(SourceError) in
      try self.ready()
      let result = try self.connection.call("auth/login", ["answers": .object(answers.mapValues(JSONValue.string))])
      guard result["authed"]?.bool == true else { throw SourceError("not signed in") }
      self.lock.withLock { self.info.needsSignIn = false }
      try? self.credentials.save(answers, for: self.title)
    }
  }

  /// Forgets the saved answers and ends the program, which forgets its own
  /// session; the next use starts signed out.
  public func signOut() async {
    credentials.remove(for: title)
    await Self.onOwnThread { self.connection.stop(grace: 0.2) }
  }

  // MARK: Images

  public func fetchThumbnail(
    _ url: String, isCancelled: @escaping @Sendable () -> Bool, progress: (@Sendable (Int64, Int64?) -> Void)? = nil
  ) throws(SourceError) -> LoadedImageData {
    if URLResolver.isHTTP(url) {
      let response: HTTPResponse
      do {
        response = try HTTPClient.get(
          HTTPRequest(url: url, maxBytes: WebSource.maxThumbnailBytes), progress: progress, isCancelled: isCancelled)
      } catch {
        throw SourceError(error.message)
      }
      guard response.status == 200 else { throw SourceError("HTTP \(response.status)") }
      return .bytes(response.body)
    }
    return try fetch(url, thumbnail: true)
  }

  public func download(
    _ url: String, into file: Int32, progress: @escaping @Sendable (Int64, Int64?) -> Void,
    isCancelled: @escaping @Sendable () -> Bool
  ) throws(SourceError) {
    if URLResolver.isHTTP(url) {
      let response: HTTPResponse
      do {
        response = try HTTPClient.get(
          HTTPRequest(url: url, timeout: 0, maxBytes: 2 << 30), into: file, progress: progress,
          isCancelled: isCancelled)
      } catch {
        throw SourceError(error.message)
      }
      guard response.status == 200 else { throw SourceError("\(title): HTTP \(response.status)") }
      return
    }
    switch try fetch(url, thumbnail: false) {
    case .bytes(let bytes), .head(let bytes):
      guard FileIO.writeAll(file, bytes) else { throw SourceError("cannot write the download") }
      progress(Int64(bytes.count), Int64(bytes.count))
    case .file(let path):
      try FileCopy.copy(from: path, into: file, progress: progress, isCancelled: isCancelled)
    }
  }

  /// `fetch` for URLs in a scheme only the source knows.
  private func fetch(_ url: String, thumbnail: Bool) throws(SourceError) -> LoadedImageData {
    let answer = try request("fetch", ["url": .string(url), "thumbnail": .bool(thumbnail)])
    if let path = answer["path"]?.string, !path.isEmpty { return .file(PathBytes(path)) }
    if let data = answer["data"]?.string, let bytes = Data(base64Encoded: data, options: .ignoreUnknownCharacters) {
      return .bytes(Array(bytes))
    }
    throw SourceError("\(title) answered fetch without a path or data")
  }

  /// Runs blocking work on a thread of its own, so a source that takes its
  /// time holds no thread of Swift's small shared pool.
  static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws(SourceError) -> T)
    async throws(SourceError)
    -> T
  {
    let result: Result<T, SourceError> = await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        do throws(SourceError) {
          continuation.resume(returning: .success(try work()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
    return try result.get()
  }

  static func onOwnThread(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        work()
        continuation.resume()
      }
    }
  }
}
