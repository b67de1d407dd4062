/// The preview (`v`): the focused photo full screen, with its facts panel
/// (`i`) or without, and the loupe's zoom and pan. It moves the grid's
/// focus itself, so leaving it puts the grid on the last photo shown.
public struct PreviewMode: ModeModel {
  public var showsFacts: Bool

  public init(showsFacts: Bool = false) { self.showsFacts = showsFacts }

  public static let name = "preview"
  public static let standardKeys = KeyMap<PreviewAction>(
    title: "preview (v)",
    bindings: [
      .init(
        [.left, .char("h")], .previous, help: "previous", hint: "photo", hintKeys: "←→",
        group: "photo (zoomed: pan)"),
      .init([.right, .char("l")], .next, help: "next", group: "photo (zoomed: pan)"),
      .init([.char("p")], .previousPhoto, help: "previous", group: "photo, zoom kept"),
      .init([.char("n")], .nextPhoto, help: "next", group: "photo, zoom kept"),
      .init([.char("+"), .char("=")], .zoomIn, help: "zoom in", hint: "zoom", hintKeys: "+-", group: "zoom"),
      .init([.char("-")], .zoomOut, help: "zoom out", group: "zoom"),
      .init([.char("z")], .actualSize, help: "fit / 100%"),
      .init([.char("0")], .fit, help: "fit"),
      .init([.up, .char("k")], .panUp, help: "pan up", group: "pan"),
      .init([.down, .char("j")], .panDown, help: "pan down", group: "pan"),
      .init([.shiftLeft], .pageLeft, help: "pan a view left", group: "pan a view"),
      .init([.shiftRight], .pageRight, help: "pan a view right", group: "pan a view"),
      .init([.shiftUp], .pageUp, help: "pan a view up", group: "pan a view"),
      .init([.shiftDown], .pageDown, help: "pan a view down", group: "pan a view"),
      .init([.char(" ")], .toggle, help: "select", hint: "select"),
      .init([.enter], .activate, help: "pick", hint: "pick"),
      .init([.char("i")], .facts, help: "facts", hint: "facts"),
      .init([.escape, .char("v"), .char("q")], .back, help: "back", hint: "back"),
      .init([.ctrl("c")], .cancel, help: "cancel"),
    ])

  public mutating func update(key: Key, action: PreviewAction?, app: inout AppState) -> ModeStep {
    guard let action else { return .stay }
    switch action {
    case .previous:
      if app.loupe != nil { app.pan(dx: -1.0 / 3, dy: 0) } else { return .run(app.step(by: -1)) }
    case .next:
      if app.loupe != nil { app.pan(dx: 1.0 / 3, dy: 0) } else { return .run(app.step(by: 1)) }
    case .previousPhoto: return .run(app.step(by: -1))
    case .nextPhoto: return .run(app.step(by: 1))
    case .zoomIn, .zoomOut, .actualSize, .fit: app.zoom(action)
    case .panUp: app.pan(dx: 0, dy: -1.0 / 3)
    case .panDown: app.pan(dx: 0, dy: 1.0 / 3)
    case .pageLeft: app.pan(dx: -1, dy: 0)
    case .pageRight: app.pan(dx: 1, dy: 0)
    case .pageUp: app.pan(dx: 0, dy: -1)
    case .pageDown: app.pan(dx: 0, dy: 1)
    case .toggle: app.toggleFocused()
    case .activate: return .run(app.activateFocused())
    case .facts: showsFacts.toggle()
    case .back:
      app.loupe = nil
      return .leave
    case .cancel: return .cancel
    }
    return .stay
  }

  /// The wheel zooms; a drag pans, the photo following the pointer.
  public mutating func update(mouse: MouseEvent, app: inout AppState) -> ModeStep {
    app.handlePreviewMouse(mouse)
    return .stay
  }

  /// The photo's facts are read as the preview opens, panel or not: the
  /// loupe needs the size.
  public func afterEvent(app: inout AppState) -> [Effect] { app.askForFacts() }

  public func wantedImages(app: AppState) -> [ImageRequest]? { app.wantedPreviewImages() }

  public var placement: ModePlacement { .fullScreen }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    PreviewView.draw(app, showsFacts: showsFacts, theme: theme, into: &screen)
  }
}

/// What a key does in the full-screen preview.
public enum PreviewAction: String, CaseIterable, KeyCommand {
  case previous, next, toggle, activate, facts, back, cancel
  /// The loupe: zoom, and pan a third of the view or (`page-*`) a whole one.
  case zoomIn = "zoom-in", zoomOut = "zoom-out", actualSize = "actual-size", fit
  case panUp = "pan-up", panDown = "pan-down", pageLeft = "page-left", pageRight = "page-right"
  case pageUp = "page-up", pageDown = "page-down"
  /// The next or previous photo whether zoomed or not (at fit, ← → too).
  case nextPhoto = "next-photo", previousPhoto = "previous-photo"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
