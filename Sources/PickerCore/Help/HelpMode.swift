/// The `?` screen: every key, made from the key maps. It scrolls where it
/// does not fit; any other key closes it.
public struct HelpMode: ModeModel {
  /// How far it is scrolled, in lines.
  public var scroll = 0

  public init() {}

  public static let name = "help"
  public static let cancelAction: HelpAction? = .cancel
  public static let standardKeys = KeyMap<HelpAction>(
    title: "help (?)",
    bindings: [
      .init([.down, .char("j")], .scrollDown, help: "scroll down", group: "scroll"),
      .init([.up, .char("k")], .scrollUp, help: "scroll up", group: "scroll"),
      .init([.pageDown, .char(" ")], .pageDown, help: "page down", group: "scroll"),
      .init([.pageUp], .pageUp, help: "page up", group: "scroll"),
    ], otherKeys: "other keys close it")

  /// Help does not list its own keys: it says them in its title.
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] { [] }

  public mutating func update(key: Key, action: HelpAction?, app: AppState) -> ModeStep {
    let page = max(1, app.size.height - 6)
    switch action {
    case .cancel?: return .cancel
    case .scrollDown?: scroll += 1
    case .scrollUp?: scroll = max(0, scroll - 1)
    case .pageDown?: scroll += page
    case .pageUp?: scroll = max(0, scroll - page)
    case nil: return .leave
    }
    return .stay
  }

  /// The wheel scrolls three lines at a time.
  public mutating func update(mouse: MouseEvent, app: AppState) -> ModeStep {
    if mouse.kind == .wheelDown { scroll += 3 }
    if mouse.kind == .wheelUp { scroll = max(0, scroll - 3) }
    return .stay
  }

  public var placement: ModePlacement { .overGrid }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    HelpView.draw(app, scroll: scroll, theme: theme, into: &screen)
  }
}

/// What a key does on the help screen (scrolling where it does not fit);
/// any other key closes it.
public enum HelpAction: String, CaseIterable, KeyCommand {
  case cancel
  case scrollUp = "scroll-up", scrollDown = "scroll-down", pageUp = "page-up", pageDown = "page-down"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

extension AppState {
  /// `?`: every key, over whatever is on screen.
  mutating func openHelp() { enter(HelpMode()) }
}
