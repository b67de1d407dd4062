/// Compare (`c`): the picked photos side by side, up to four at a time.
/// Tab moves the active pane, Space picks or unpicks its photo, x drops it
/// (the next takes its place), Enter confirms as in the grid; the loupe's
/// zoom and pan apply to every pane at once, reckoned on the active photo.
public struct CompareMode: ModeModel {
  public var compared: CompareState

  public init(_ compared: CompareState) { self.compared = compared }

  public static let name = "compare"
  public static let standardKeys = KeyMap<CompareAction>(
    title: "compare (c)",
    bindings: [
      .init([.tab], .nextPane, help: "next pane", hint: "pane", group: "pane"),
      .init([.backTab], .previousPane, help: "previous pane", group: "pane"),
      .init([.char(" ")], .toggle, help: "pick or unpick", hint: "pick"),
      .init([.char("x")], .drop, help: "drop from the compare", hint: "drop"),
      .init([.enter], .activate, help: "confirm", hint: "confirm"),
      .init([.pageDown, .char("]")], .nextPage, help: "next four", group: "next / previous four"),
      .init([.pageUp, .char("[")], .previousPage, help: "previous four", group: "next / previous four"),
      .init([.char("+"), .char("=")], .zoomIn, help: "zoom in", hint: "zoom", hintKeys: "+-", group: "zoom"),
      .init([.char("-")], .zoomOut, help: "zoom out", group: "zoom"),
      .init([.char("z")], .actualSize, help: "fit / 100%"),
      .init([.char("0")], .fit, help: "fit"),
      .init([.left, .char("h")], .panLeft, help: "pan left", group: "pan, all panes"),
      .init([.right, .char("l")], .panRight, help: "pan right", group: "pan, all panes"),
      .init([.up, .char("k")], .panUp, help: "pan up", group: "pan, all panes"),
      .init([.down, .char("j")], .panDown, help: "pan down", group: "pan, all panes"),
      .init([.escape, .char("c"), .char("q")], .back, help: "back", hint: "back"),
      .init([.ctrl("c")], .cancel, help: "cancel"),
    ])

  public mutating func update(key: Key, action: CompareAction?, app: inout AppState) -> ModeStep {
    guard let action else { return .stay }
    let shown = compared.shown.count
    switch action {
    case .nextPane: compared.active = (compared.active + 1) % max(1, shown)
    case .previousPane: compared.active = (compared.active + max(1, shown) - 1) % max(1, shown)
    case .toggle: app.togglePick(compared.activePhoto)
    case .drop:
      compared.photos.remove(at: compared.first + compared.active)
      if compared.photos.isEmpty {
        app.loupe = nil
        return .leave
      }
      if compared.first >= compared.photos.count {
        compared.first = max(0, compared.first - CompareState.panesAtOnce)
      }
      compared.active = min(compared.active, compared.shown.count - 1)
    case .activate:
      // Nothing picked (all unpicked here): the active photo is the pick.
      if app.selection.isEmpty, let photo = compared.activePhoto { app.selection.insert(photo) }
      return .run(app.confirm(focused: nil))
    case .nextPage:
      if compared.first + CompareState.panesAtOnce < compared.photos.count {
        compared.first += CompareState.panesAtOnce
        compared.active = 0
      }
    case .previousPage:
      compared.first = max(0, compared.first - CompareState.panesAtOnce)
      compared.active = 0
    case .zoomIn, .zoomOut, .actualSize, .fit: app.compareZoom(action, state: compared)
    case .panLeft: app.comparePan(dx: -1.0 / 3, dy: 0, state: compared)
    case .panRight: app.comparePan(dx: 1.0 / 3, dy: 0, state: compared)
    case .panUp: app.comparePan(dx: 0, dy: -1.0 / 3, state: compared)
    case .panDown: app.comparePan(dx: 0, dy: 1.0 / 3, state: compared)
    case .back:
      app.loupe = nil
      return .leave
    case .cancel: return .cancel
    }
    return .stay
  }

  /// A click makes its pane active; the wheel zooms every pane.
  public mutating func update(mouse: MouseEvent, app: inout AppState) -> ModeStep {
    switch mouse.kind {
    case .wheelUp: app.compareZoom(.zoomIn, state: compared)
    case .wheelDown: app.compareZoom(.zoomOut, state: compared)
    case .click, .doubleClick:
      let panes = app.comparePanes(compared)
      if let index = panes.firstIndex(where: {
        ($0.x..<($0.x + $0.width)).contains(mouse.x) && ($0.y..<($0.y + $0.height)).contains(mouse.y)
      }) {
        compared.active = index
      }
    case .drag: break
    }
    return .stay
  }

  /// The facts and sharpness of the photos on screen, each read once.
  public func afterEvent(app: inout AppState) -> [Effect] { app.askForCompareFacts(compared) }

  public func wantedImages(app: AppState) -> [ImageRequest]? { app.wantedCompareImages(compared) }

  public var placement: ModePlacement { .fullScreen }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    CompareView.draw(compared, state: app, theme: theme, into: &screen)
  }
}

/// What a key does in the compare: the active pane, picks, paging, and the
/// loupe's zoom and pan, shared by every pane.
public enum CompareAction: String, CaseIterable, KeyCommand {
  case nextPane = "next-pane", previousPane = "previous-pane", toggle, drop, activate
  case nextPage = "next-page", previousPage = "previous-page"
  case zoomIn = "zoom-in", zoomOut = "zoom-out", actualSize = "actual-size", fit
  case panLeft = "pan-left", panRight = "pan-right", panUp = "pan-up", panDown = "pan-down"
  case back, cancel
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
