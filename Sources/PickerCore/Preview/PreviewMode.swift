/// The preview (`v`): the focused photo full screen, with its facts panel
/// (`i`) or without, and the loupe: `+`/`-` zoom in steps, `z` goes between
/// fit and 100%, `0` back to fit; arrows and hjkl pan a third of the view,
/// Shift and an arrow a whole view; the wheel zooms and a drag pans; `n`/`p`
/// step to the next or previous photo keeping the zoom and the centre. It
/// moves the grid's focus (an intent), so leaving it puts the grid on the
/// last photo shown.
public struct PreviewMode: ModeModel {
  public var showsFacts: Bool
  /// Zoomed in: how much, and where; nil at fit.
  public var loupe: Loupe?
  /// A zoom asked for before the photo's size was read (its facts are read
  /// as the preview opens).
  var pendingZoom: ZoomStep?
  /// Where the last press or drag was, in cells.
  var dragFrom: LoupeDragPoint?

  public init(showsFacts: Bool = false) { self.showsFacts = showsFacts }

  public static let name = "preview"
  public static let backAction: PreviewAction? = .back
  public static let cancelAction: PreviewAction? = .cancel
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
      .init([.char("v"), .char("q")], .back, help: "back", hint: "back"),
    ] + KeyMap<PreviewAction>.cullingBindings(plainDigits: true) { PreviewAction(culling: $0) })

  public mutating func update(key: Key, action: PreviewAction?, app: AppState) -> ModeStep {
    guard let action else { return .stay }
    switch action {
    case .previous:
      guard loupe != nil else { return .run([.grid(.step(by: -1))]) }
      pan(dx: -1.0 / 3, dy: 0, app: app)
    case .next:
      guard loupe != nil else { return .run([.grid(.step(by: 1))]) }
      pan(dx: 1.0 / 3, dy: 0, app: app)
    case .previousPhoto: return .run([.grid(.step(by: -1))])
    case .nextPhoto: return .run([.grid(.step(by: 1))])
    case .zoomIn: return zoom(.in, app: app)
    case .zoomOut: return zoom(.out, app: app)
    case .actualSize: return zoom(.actualSize, app: app)
    case .fit: return zoom(.fit, app: app)
    case .panUp: pan(dx: 0, dy: -1.0 / 3, app: app)
    case .panDown: pan(dx: 0, dy: 1.0 / 3, app: app)
    case .pageLeft: pan(dx: -1, dy: 0, app: app)
    case .pageRight: pan(dx: 1, dy: 0, app: app)
    case .pageUp: pan(dx: 0, dy: -1, app: app)
    case .pageDown: pan(dx: 0, dy: 1, app: app)
    case .toggle: return .run([.grid(.toggleFocused)])
    case .activate: return .run([.grid(.activateFocused)])
    case .facts: showsFacts.toggle()
    case .back: return .leave
    case .cancel: return .cancel
    default:
      // The photo shown is the grid's focus.
      if let command = action.culling { return .run([.cull(command, .focusedAlone)]) }
    }
    return .stay
  }

  /// The wheel zooms; a drag pans, the photo following the pointer.
  public mutating func update(mouse: MouseEvent, app: AppState) -> ModeStep {
    switch mouse.kind {
    case .wheelUp: return zoom(.in, app: app)
    case .wheelDown: return zoom(.out, app: app)
    case .click, .doubleClick:
      dragFrom = LoupeDragPoint(x: mouse.x, y: mouse.y)
    case .drag:
      if let from = dragFrom {
        let area = app.previewPictureArea(zoomed: loupe != nil)
        pan(
          dx: Double(from.x - mouse.x) / Double(max(1, area.width)),
          dy: Double(from.y - mouse.y) / Double(max(1, area.height)), app: app)
      }
      dragFrom = LoupeDragPoint(x: mouse.x, y: mouse.y)
    }
    return .stay
  }

  /// Zooms, or waits for the photo's size to do it.
  private mutating func zoom(_ step: ZoomStep, app: AppState) -> ModeStep {
    guard let size = app.previewedPhotoSize else {
      pendingZoom = step
      return .stay
    }
    pendingZoom = nil
    let zoomed = Loupe.zoomed(
      step, from: loupe, photo: size, fitBox: app.previewBox(zoomed: false), box: app.previewBox(zoomed: true))
    loupe = zoomed.loupe
    return .run(zoomed.notice.map { [.notice($0)] } ?? [])
  }

  /// Moves the view by fractions of itself; nothing at fit.
  private mutating func pan(dx: Double, dy: Double, app: AppState) {
    guard let current = loupe, let size = app.previewedPhotoSize else { return }
    loupe = current.panned(dx: dx, dy: dy, image: size, box: app.previewBox(zoomed: true))
  }

  /// The photo's facts are read as the preview opens, panel or not: the
  /// loupe needs the size; a zoom that waited for it is made once it is
  /// known.
  public mutating func afterEvent(app: AppState) -> ModeStep {
    var step = ModeStep.stay
    if let pending = pendingZoom, app.previewedPhotoSize != nil { step = zoom(pending, app: app) }
    // Facts are kept for the photo on screen only: stepping on forgets the
    // last one's (read again, a header, if the user comes back).
    if let reference = app.previewedItem.flatMap(app.previewReference(for:)) {
      step.intents.append(.keepReadings([reference]))
    }
    if let facts = app.previewFactsWanted() { step.intents.append(facts) }
    return step
  }

  public func wantedImages(app: AppState) -> [ImageRequest]? { app.wantedPreviewImages(loupe: loupe) }

  public var placement: ModePlacement { .fullScreen }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    PreviewView.draw(app, preview: self, theme: theme, into: &screen)
  }
}

/// What a key does in the full-screen preview.
public enum PreviewAction: String, CaseIterable, KeyCommand, CullingActions {
  case previous, next, toggle, activate, facts, back, cancel
  /// The loupe: zoom, and pan a third of the view or (`page-*`) a whole one.
  case zoomIn = "zoom-in", zoomOut = "zoom-out", actualSize = "actual-size", fit
  case panUp = "pan-up", panDown = "pan-down", pageLeft = "page-left", pageRight = "page-right"
  case pageUp = "page-up", pageDown = "page-down"
  /// The next or previous photo whether zoomed or not (at fit, ← → too).
  case nextPhoto = "next-photo", previousPhoto = "previous-photo"
  /// Culling (`CullingCommand`, by the same names).
  case rate0 = "rate-0", rate1 = "rate-1", rate2 = "rate-2", rate3 = "rate-3", rate4 = "rate-4", rate5 = "rate-5"
  case reject, undo
  case labelRed = "label-red", labelYellow = "label-yellow", labelGreen = "label-green", labelBlue = "label-blue"
  case labelPurple = "label-purple"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
  public var cullingCommand: CullingCommand? { culling }
}
