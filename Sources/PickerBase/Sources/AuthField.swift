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
