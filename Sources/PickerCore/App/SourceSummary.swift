/// What the UI needs to know of a source, without the source itself, so the
/// state stays a plain value.
public struct SourceSummary: Hashable, Sendable {
  public var id: String
  public var title: String
  public var icon: String
  public var capabilities: SourceCapabilities
  public var rootLabel: String
  /// What the source says of work it does by itself ("Indexing 1,200 of
  /// ~5,000"), shown while it is on screen.
  public var status: String?
  /// The form of a source that waits for the user to sign in; the bar
  /// marks it with *.
  public var signInNeeded: AuthPrompt?

  public init(id: String, title: String, icon: String, capabilities: SourceCapabilities, rootLabel: String) {
    self.id = id
    self.title = title
    self.icon = icon
    self.capabilities = capabilities
    self.rootLabel = rootLabel
  }

  /// What the source says of itself now (a command source learns what it
  /// can do once it runs); what the UI keeps of it (its status line, the
  /// form it waits for) stays.
  mutating func takeDescription(_ described: SourceSummary) {
    id = described.id
    title = described.title
    icon = described.icon
    capabilities = described.capabilities
    rootLabel = described.rootLabel
  }

  public init(_ source: any PhotoSource) {
    self.init(
      id: source.id, title: source.title, icon: source.icon,
      capabilities: source.capabilities, rootLabel: source.rootLabel)
  }
}
