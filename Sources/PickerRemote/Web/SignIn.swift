import Foundation

/// The sign-in state web and WebDAV sources share: the Authorization value
/// in use (from the environment, the credentials store, or the form), the
/// answer to a sign-in attempt, and the 401 rule.
final class SignIn: @unchecked Sendable {
  let title: String
  let auth: WebAuthKind
  /// The service's origin: the only place the Authorization header goes.
  let origin: Origin?
  private let credentials: CredentialStore
  private let lock = NSLock()
  private var authorization: String?

  init(title: String, url: String, auth: WebAuthKind, credentials: CredentialStore) {
    self.title = title
    self.auth = auth
    self.origin = Origin(url)
    self.credentials = credentials
    if let token = credentials.environmentToken(for: title) {
      authorization = auth.authorization(auth.answers(fromEnvironmentToken: token))
    } else if let saved = credentials.answers(for: title) {
      authorization = auth.authorization(saved)
    }
  }

  var prompt: AuthPrompt? { auth.prompt.map { AuthPrompt(title: "Sign in to \(title)", fields: $0.fields) } }

  /// The Authorization value in use; nil when signed out.
  var current: String? { lock.withLock { authorization } }

  /// Uses `value` for this run only, saving nothing (benchmarks).
  func use(_ value: String) { lock.withLock { authorization = value } }

  /// The Authorization to send, or the sign-in error when one is needed and
  /// there is none (no request is made that would only come back 401).
  func required() throws(SourceError) -> String? {
    guard auth != .none else { return nil }
    guard let authorization = current else {
      throw SourceError("sign in to \(title) to see its photos", signIn: prompt)
    }
    return authorization
  }

  /// Signs in with the form's answers: `probe` asks the service with the
  /// candidate Authorization and returns its answer.
  func attempt(_ answers: [String: String], probe: (String) async throws(HTTPError) -> HTTPResponse) async throws {
    guard let candidate = auth.authorization(answers) else { throw SourceError("fill in every field") }
    let response: HTTPResponse
    do {
      response = try await probe(candidate)
    } catch {
      throw SourceError("\(title): \(error.message)")
    }
    switch response.status {
    case 200..<300:
      lock.withLock { authorization = candidate }
      // Signed in for this run even if the file cannot be written.
      try? credentials.save(answers, for: title)
    case 401, 403:
      throw SourceError(auth == .token ? "the token was refused" : "wrong user or password")
    default:
      throw SourceError("\(title): HTTP \(response.status) while signing in")
    }
  }

  func signOut() {
    lock.withLock { authorization = nil }
    credentials.remove(for: title)
  }

  /// A 401 forgets the credentials only if they were sent with the request
  /// (to our origin) and are still the ones in use: a 401 from a CDN, or for
  /// a request sent before a new sign-in, is no verdict on them. Other
  /// statuses are left to the source.
  func checkUnauthorized(_ response: HTTPResponse, sent: String?) throws(SourceError) {
    guard response.status == 401 else { return }
    if let sent, Origin(response.url) == origin {
      lock.withLock { if authorization == sent { authorization = nil } }
    }
    throw SourceError("\(title) asks to sign in again", signIn: prompt ?? AuthPrompt(title: title, fields: []))
  }
}
