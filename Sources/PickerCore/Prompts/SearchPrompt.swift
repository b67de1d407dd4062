/// The search prompt (`/`): each key narrows the grid to the results of
/// what is typed (within the folder on screen); Enter keeps them, Esc puts
/// back what was on screen before, focus and all. Up and Down walk the
/// searches of earlier runs.
public struct SearchPrompt: ModeModel {
  /// What is typed so far.
  public var query: String
  /// The query the grid shows results of ("" for none shown yet).
  public private(set) var shown = ""
  /// The results on screen when `/` was pressed: typing replaces them,
  /// Esc brings them back as they were.
  var startingResults: Scope?
  /// How far back Up has gone in the history; nil on the line typed.
  var recalled: Int?
  /// The line as typed, kept while Up shows older searches.
  var typed = ""

  public init(query: String = "", startingResults: Scope? = nil) {
    self.query = query
    self.startingResults = startingResults
    // From results the line starts empty, as it always has: what is typed
    // replaces them (Up brings their words back to narrow them).
    if let startingResults, case .search(let words, _) = startingResults.kind { shown = words }
  }

  public static let name = "search"
  public static let backAction: PromptAction? = .close
  public static let cancelAction: PromptAction? = .cancel
  public static let standardKeys = KeyMap.prompt(title: "search (/)", submit: "done", history: true)

  /// The two prompts share a help line while their keys are the same.
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] {
    let search = keys[SearchPrompt.self]
    guard DatePrompt.sharesKeys(with: search, in: keys) else { return [(search.title, search.helpLine)] }
    return [("prompts (/ :)", search.helpLine)]
  }

  public mutating func update(key: Key, action: PromptAction?, app: AppState) -> ModeStep {
    switch action {
    case .older?: recall(by: 1, history: app.searchHistory)
    case .newer?: recall(by: -1, history: app.searchHistory)
    case .close?:
      // Esc: what was on screen before `/`, unless nothing was changed.
      let changed = shown != (startingResults.flatMap(Self.query(of:)) ?? "")
      return .leave(changed ? [.grid(.restoreResults(startingResults))] : [])
    case .submit?:
      return .leave(query.trimmed.isEmpty ? [] : [.grid(.keepSearch(query))])
    default:
      var line = PromptLine(query)
      let step = line.edit(key, action: action)
      // Typing over a recalled search makes it the line typed.
      if line.text != query { recalled = nil }
      query = line.text
      if let step, step.leaves || !step.intents.isEmpty { return step }
    }
    return narrow()
  }

  /// The grid follows the line: results of what is typed, or what was on
  /// screen before once the line is empty.
  private mutating func narrow() -> ModeStep {
    let wanted = query.trimmed
    guard wanted != shown else { return .stay }
    shown = wanted
    if wanted.isEmpty { return .run([.grid(.restoreResults(nil))]) }
    return .run([.grid(.filter(wanted))])
  }

  private mutating func recall(by step: Int, history: [String]) {
    guard !history.isEmpty else { return }
    if recalled == nil { typed = query }
    let next = (recalled ?? -1) + step
    if next < 0 {
      recalled = nil
      query = typed
    } else {
      recalled = min(next, history.count - 1)
      query = history[history.count - 1 - recalled!]
    }
  }

  static func query(of scope: Scope) -> String? {
    if case .search(let query, _) = scope.kind { return query }
    return nil
  }

  public var placement: ModePlacement { .bottomLine }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    FooterView.drawPrompt(
      "Search \(app.sources[app.grid.activeSource].title): ", typed: query, theme: theme, y: screen.height - 1,
      into: &screen)
  }
}

extension String {
  var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

/// What a key does in a one-line prompt (search, go to date); other
/// characters are typed.
public enum PromptAction: String, CaseIterable, KeyCommand {
  case close, cancel, clear, deleteBackward = "delete-backward", submit
  /// The search prompt's history: an older search, a newer one.
  case older = "history-older", newer = "history-newer"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
