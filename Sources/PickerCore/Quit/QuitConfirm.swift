/// Asked once on the bottom line when Esc at a source's top or `q` would
/// end a run that has picks: one key too many must not drop them from the
/// pipe. Enter prints them (as Enter on the grid would), Esc or `q` again
/// leaves without them, any other key goes back to the grid. Ctrl-C and
/// signals never ask.
public struct QuitConfirm: ModeModel {
  public init() {}

  public static let name = "quit"
  public static let backAction: QuitConfirmAction? = .leave
  public static let cancelAction: QuitConfirmAction? = .cancel
  public static let standardKeys = KeyMap<QuitConfirmAction>(
    title: "leaving with picks",
    bindings: [
      .init([.enter], .print, help: "print the picks"),
      .init([.char("q")], .leave, help: "leave without them"),
    ], otherKeys: "other keys go back")

  /// The question says its keys: help lists none for it.
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] { [] }

  public mutating func update(key: Key, action: QuitConfirmAction?, app: AppState) -> ModeStep {
    switch action {
    case .print?: return .leave([.confirm])
    case .leave?, .cancel?: return .cancel
    case nil: return .leave
    }
  }

  public var placement: ModePlacement { .bottomLine }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    FooterView.drawQuestion(Self.question(app: app), theme: theme, y: screen.height - 1, into: &screen)
  }

  /// "3 picked: Enter prints them, Esc leaves without them", with the
  /// keys the config bound.
  static func question(app: AppState) -> String {
    let keys = app.options.keys[QuitConfirm.self]
    let count = app.selection.count
    let them = count == 1 ? "it" : "them"
    let print = keys.keys(for: .print).first?.label ?? "Enter"
    let leave = keys.keys(for: .leave).first?.label ?? "Esc"
    return "\(count) picked: \(print) prints \(them), \(leave) leaves without \(them), any other key stays"
  }
}

/// What a key does while the picker asks whether to leave with picks.
public enum QuitConfirmAction: String, CaseIterable, KeyCommand {
  case print, leave, cancel
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

extension AppState {
  /// Esc at a source's top, or `q`: the run ends with nothing printed, but
  /// with picks it asks once first.
  mutating func quitAsking() -> [Effect] {
    guard !selection.isEmpty else { return [.finish(.cancelled)] }
    enter(QuitConfirm())
    return []
  }
}
