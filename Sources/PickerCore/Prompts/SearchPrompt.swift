/// The search prompt (`/`): Enter opens the results as a scope, within the
/// folder on screen.
public struct SearchPrompt: ModeModel {
  /// What is typed so far.
  public var query: String

  public init(query: String = "") { self.query = query }

  public static let name = "search"
  public static let backAction: PromptAction? = .close
  public static let cancelAction: PromptAction? = .cancel
  public static let standardKeys = KeyMap.prompt(title: "search (/)", submit: "search")

  /// The two prompts share a help line while their keys are the same.
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] {
    let search = keys[SearchPrompt.self]
    guard DatePrompt.sharesKeys(with: search, in: keys) else { return [(search.title, search.helpLine)] }
    return [("prompts (/ :)", search.helpLine.replacingOccurrences(of: "Enter search", with: "Enter search or go"))]
  }

  public mutating func update(key: Key, action: PromptAction?, app: AppState) -> ModeStep {
    var line = PromptLine(query)
    defer { query = line.text }
    if let step = line.edit(key, action: action) { return step }
    return .leave(query.isEmpty ? [] : [.grid(.search(query))])
  }

  public var placement: ModePlacement { .bottomLine }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    FooterView.drawPrompt(
      "Search \(app.sources[app.grid.activeSource].title): ", typed: query, theme: theme, y: screen.height - 1,
      into: &screen)
  }
}

/// What a key does in a one-line prompt (search, go to date); other
/// characters are typed.
public enum PromptAction: String, CaseIterable, KeyCommand {
  case close, cancel, clear, deleteBackward = "delete-backward", submit
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
