/// Whether the user is signed in to a source.
public enum AuthStatus: Hashable, Sendable {
  case signedIn
  case signedOut
}
