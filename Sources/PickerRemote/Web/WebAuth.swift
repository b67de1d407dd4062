import Foundation

/// How a web source signs in (the config's `auth` key).
public enum WebAuthKind: String, CaseIterable, Hashable, Sendable {
  case none, token, basic

  /// The form the picker shows.
  public var prompt: AuthPrompt? {
    switch self {
    case .none: return nil
    case .token: return AuthPrompt(title: "", fields: [AuthField(name: "token", label: "Token", isSecret: true)])
    case .basic:
      return AuthPrompt(
        title: "",
        fields: [
          AuthField(name: "user", label: "User"), AuthField(name: "password", label: "Password", isSecret: true),
        ])
    }
  }

  /// The Authorization header value for a form's answers; nil when a field
  /// is missing.
  public func authorization(_ answers: [String: String]) -> String? {
    switch self {
    case .none: return nil
    case .token:
      guard let token = answers["token"], !token.isEmpty else { return nil }
      return "Bearer " + token
    case .basic:
      guard let user = answers["user"], !user.isEmpty, let password = answers["password"] else { return nil }
      return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
  }

  /// PICKER_TUI_<NAME>_TOKEN as answers: the token, or "user:password".
  public func answers(fromEnvironmentToken token: String) -> [String: String] {
    switch self {
    case .none: return [:]
    case .token: return ["token": token]
    case .basic:
      let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
      return parts.count == 2 ? ["user": parts[0], "password": parts[1]] : [:]
    }
  }
}
