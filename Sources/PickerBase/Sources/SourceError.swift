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
