/// The form a source asks the user to fill in to sign in.
public struct AuthPrompt: Hashable, Sendable {
  public var title: String
  public var fields: [AuthField]

  public init(title: String, fields: [AuthField]) {
    self.title = title
    self.fields = fields
  }
}
