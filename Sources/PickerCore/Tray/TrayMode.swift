/// The picked tray with the keys (`t`): the focus walks the picks, Space or
/// x removes one, Enter confirms them.
public struct TrayMode: ModeModel {
  /// The pick under the focus.
  public var focus: Int

  public init(focus: Int) { self.focus = focus }

  public static let name = "tray"
  public static let backAction: TrayAction? = .back
  public static let cancelAction: TrayAction? = .cancel
  public static let standardKeys = KeyMap<TrayAction>(
    title: "tray (t)",
    bindings: [
      .init([.left, .char("h")], .previous, help: "previous", hint: "move", hintKeys: "← →"),
      .init([.right, .char("l")], .next, help: "next"),
      .init([.home], .first, help: "first"),
      .init([.end], .last, help: "last"),
      .init(
        [.char(" "), .char("x"), .delete, .backspace], .remove, help: "remove", hint: "remove", hintKeys: "Space/x"),
      .init([.enter], .confirm, help: "pick", hint: "pick"),
      .init([.char("t"), .up, .char("k")], .back, help: "back", hint: "back to the grid"),
      .init([.char("q")], .quit, help: "leave (asks first)"),
    ])

  public mutating func update(key: Key, action: TrayAction?, app: AppState) -> ModeStep {
    guard let action else { return .stay }
    let last = app.selection.count - 1
    switch action {
    case .previous: focus = max(0, focus - 1)
    case .next: focus = min(last, focus + 1)
    case .first: focus = 0
    case .last: focus = last
    case .remove:
      guard app.selection.photos.indices.contains(focus) else { break }
      let removed = ModeIntent.unpick(app.selection.photos[focus].key)
      // The last one gone: back to the grid.
      if app.selection.count == 1 { return .leave([removed]) }
      focus = min(focus, app.selection.count - 2)
      return .run([removed])
    case .back: return .leave
    case .confirm: return .run([.confirm])
    case .quit: return .run([.quit])
    case .cancel: return .cancel
    }
    return .stay
  }

  public var placement: ModePlacement { .bottomLine }
  public static let givesWayToSignIn = true

  /// The tray's line with the focused pick marked, and the tray's keys on
  /// the line below (unless a message takes it).
  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    let trayLine = screen.height - 2
    screen.fill(x: 0, y: trayLine, width: screen.width, height: 1, style: .plain)
    FooterView.drawTray(app, focus: focus, theme: theme, y: trayLine, into: &screen)
    guard app.notice == nil else { return }
    FooterView.drawHints(app.options.keys[TrayMode.self].hintLine, theme: theme, y: screen.height - 1, into: &screen)
  }
}

/// What a key does in the picked tray.
public enum TrayAction: String, CaseIterable, KeyCommand {
  case previous, next, first, last, remove, back, confirm, quit, cancel
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

extension AppState {
  /// `t`: the tray, on the last pick; with none, a notice says how to pick.
  mutating func openTray() {
    if selection.isEmpty {
      notice = Notice("Nothing picked yet: Space picks the focused photo")
    } else {
      enter(TrayMode(focus: selection.count - 1))
    }
  }
}
