/// Compare (`c`): the picked photos side by side, up to four at a time.
/// Tab moves the active pane, Space picks or unpicks its photo, x drops it
/// (the next takes its place), Enter confirms as in the grid; the loupe's
/// zoom and pan apply to every pane at once, reckoned on the active photo.
public struct CompareMode: ModeModel {
  public var compared: CompareState

  public init(_ compared: CompareState) { self.compared = compared }

  public static let name = "compare"
  public static let backAction: CompareAction? = .back
  public static let cancelAction: CompareAction? = .cancel
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
      .init([.char("c"), .char("q")], .back, help: "back", hint: "back"),
    ] + KeyMap<CompareAction>.cullingBindings(plainDigits: true) { CompareAction(culling: $0) })

  public mutating func update(key: Key, action: CompareAction?, app: AppState) -> ModeStep {
    guard let action else { return .stay }
    let shown = compared.shown.count
    switch action {
    case .nextPane: compared.active = (compared.active + 1) % max(1, shown)
    case .previousPane: compared.active = (compared.active + max(1, shown) - 1) % max(1, shown)
    case .toggle: return .run(compared.activePhoto.map { [.togglePick($0)] } ?? [])
    case .drop:
      compared.photos.remove(at: compared.first + compared.active)
      if compared.photos.isEmpty { return .leave }
      if compared.first >= compared.photos.count {
        compared.first = max(0, compared.first - CompareState.panesAtOnce)
      }
      compared.active = min(compared.active, compared.shown.count - 1)
    case .activate:
      // Nothing picked (all unpicked here): the active photo is the pick.
      if app.selection.isEmpty, let photo = compared.activePhoto { return .run([.pick(photo), .confirm]) }
      return .run([.confirm])
    case .nextPage:
      if compared.first + CompareState.panesAtOnce < compared.photos.count {
        compared.first += CompareState.panesAtOnce
        compared.active = 0
      }
    case .previousPage:
      compared.first = max(0, compared.first - CompareState.panesAtOnce)
      compared.active = 0
    case .zoomIn: return zoom(.in, app: app)
    case .zoomOut: return zoom(.out, app: app)
    case .actualSize: return zoom(.actualSize, app: app)
    case .fit: return zoom(.fit, app: app)
    case .panLeft: pan(dx: -1.0 / 3, dy: 0, app: app)
    case .panRight: pan(dx: 1.0 / 3, dy: 0, app: app)
    case .panUp: pan(dx: 0, dy: -1.0 / 3, app: app)
    case .panDown: pan(dx: 0, dy: 1.0 / 3, app: app)
    case .back: return .leave
    case .cancel: return .cancel
    default:
      // The active pane's photo.
      if let command = action.culling, let photo = compared.activePhoto {
        return .run([.cull(command, .photos([photo]))])
      }
    }
    return .stay
  }

  /// A click makes its pane active; the wheel zooms every pane.
  public mutating func update(mouse: MouseEvent, app: AppState) -> ModeStep {
    switch mouse.kind {
    case .wheelUp: return zoom(.in, app: app)
    case .wheelDown: return zoom(.out, app: app)
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

  /// Every pane zooms, reckoned on the active photo (its size is read
  /// with its facts).
  private mutating func zoom(_ step: ZoomStep, app: AppState) -> ModeStep {
    guard let (size, box) = app.activeCompareView(compared) else {
      return .run([.notice(Notice("Zoom waits for the photos' sizes (reading…)"))])
    }
    let zoomed = Loupe.zoomed(step, from: compared.loupe, photo: size, fitBox: box, box: box)
    compared.loupe = zoomed.loupe
    return .run(zoomed.notice.map { [.notice($0)] } ?? [])
  }

  private mutating func pan(dx: Double, dy: Double, app: AppState) {
    guard let current = compared.loupe, let (size, box) = app.activeCompareView(compared) else { return }
    compared.loupe = current.panned(dx: dx, dy: dy, image: size, box: box)
  }

  /// The facts and sharpness of the photos on screen, each read once.
  public mutating func afterEvent(app: AppState) -> ModeStep {
    // Every compared photo's, not only the page's: a stack's scores come
    // from its signatures, not read again when paging.
    .run([.keepReadings(Set(compared.photos.map(\.reference)))] + app.compareFactsWanted(compared))
  }

  public func wantedImages(app: AppState) -> [ImageRequest]? { app.wantedCompareImages(compared) }

  public var placement: ModePlacement { .fullScreen }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    CompareView.draw(compared, state: app, theme: theme, into: &screen)
  }
}

/// What a key does in the compare: the active pane, picks, paging, and the
/// loupe's zoom and pan, shared by every pane.
public enum CompareAction: String, CaseIterable, KeyCommand, CullingActions {
  case nextPane = "next-pane", previousPane = "previous-pane", toggle, drop, activate
  case nextPage = "next-page", previousPage = "previous-page"
  case zoomIn = "zoom-in", zoomOut = "zoom-out", actualSize = "actual-size", fit
  case panLeft = "pan-left", panRight = "pan-right", panUp = "pan-up", panDown = "pan-down"
  case back, cancel
  /// Culling (`CullingCommand`, by the same names).
  case rate0 = "rate-0", rate1 = "rate-1", rate2 = "rate-2", rate3 = "rate-3", rate4 = "rate-4", rate5 = "rate-5"
  case reject, undo
  case labelRed = "label-red", labelYellow = "label-yellow", labelGreen = "label-green", labelBlue = "label-blue"
  case labelPurple = "label-purple"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
  public var cullingCommand: CullingCommand? { culling }
}
