/// The go-to-date prompt (`:`): a year, a month, a day or a word
/// ("yesterday"), and Enter lands on the newest photo of it.
public struct DatePrompt: ModeModel {
  /// What is typed so far.
  public var query: String

  public init(query: String = "") { self.query = query }

  public static let name = "go-to-date"
  public static let backAction: PromptAction? = .close
  public static let cancelAction: PromptAction? = .cancel
  public static let standardKeys = KeyMap.prompt(title: "go to date (:)", submit: "go")

  /// Listed with search's keys while they are the same.
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] {
    let map = keys[DatePrompt.self]
    return sharesKeys(with: keys[SearchPrompt.self], in: keys) ? [] : [(map.title, map.helpLine)]
  }

  /// Search's history keys aside.
  static func sharesKeys(with search: KeyMap<PromptAction>, in keys: KeyMaps) -> Bool {
    let shared = search.bindings.filter { $0.action != .older && $0.action != .newer }
    return shared.map(\.keys) == keys[DatePrompt.self].bindings.map(\.keys)
  }

  public mutating func update(key: Key, action: PromptAction?, app: AppState) -> ModeStep {
    var line = PromptLine(query)
    defer { query = line.text }
    if let step = line.edit(key, action: action) { return step }
    return .leave(query.isEmpty ? [] : [.grid(.goToDate(query))])
  }

  public var placement: ModePlacement { .bottomLine }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    FooterView.drawPrompt(
      "Go to date (2023, 2023-06, jun 2023, yesterday): ", typed: query, theme: theme, y: screen.height - 1,
      into: &screen)
  }
}
