/// A mode over the grid (the tray, a prompt, help, the preview, compare, a
/// sign-in form, a download) as a page of its own, the way Elm composes
/// pages and The Composable Architecture its features: it owns its state
/// (the preview its loupe, compare its panes and their loupe), sees the
/// app's state read-only, and says what it wants of the app as intents
/// (`ModeIntent`), a small closed set the app carries out. The app keeps
/// what modes share (sources, scopes, the selection, thumbnails, facts)
/// and a stack of modes; the one on top gets the events.
///
/// A new mode is a type conforming to this, in its own files, and one line
/// in `ModeRegistry.standard` (for its config name, key table, help row
/// and, with an `opening`, the grid key that opens it).
/// A mode that does I/O asks for a `ModeTask` (`ModeIntent.run`); what the
/// task reports comes back to it as its `Message`.
public protocol ModeModel: Hashable, Sendable {
  associatedtype Action: KeyCommand
  /// What its tasks report back; `NoMessage` for a mode without I/O.
  associatedtype Message: Hashable & Sendable = NoMessage

  /// The config's name of its key table (`[keys.NAME]`).
  static var name: String { get }
  /// Its keys before the config rebinds them; Esc and Ctrl-C are the
  /// stack's (`StackAction`), added to `backAction` and `cancelAction`.
  static var standardKeys: KeyMap<Action> { get }
  /// The action Esc stands for here; nil: Esc leaves the mode.
  static var backAction: Action? { get }
  /// The action Ctrl-C stands for here; nil: the run ends at once.
  static var cancelAction: Action? { get }
  /// Help's rows for it, "title: keys"; none for modes that need no help.
  static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)]
  /// How the grid opens it (`ModeRegistry`); nil when another mode or the
  /// app opens it (a download by Enter, a form by its source).
  static var opening: ModeOpening<Self>? { get }
  /// A source's sign-in form, asked for by a page that failed, opens over
  /// it (the tray: the grid is still what the user looks at); otherwise
  /// the form waits until the user comes back to the source.
  static var givesWayToSignIn: Bool { get }
  /// It carries a confirm out (a download): while it is on top, the late
  /// check of a second Enter is dropped.
  static var carriesConfirmOut: Bool { get }

  /// A key: `action` is what the mode's key map binds it to, nil when it
  /// binds nothing (prompts type such keys).
  mutating func update(key: Key, action: Action?, app: AppState) -> ModeStep
  /// A click, a drag or the wheel.
  mutating func update(mouse: MouseEvent, app: AppState) -> ModeStep
  /// After every event while the mode is on top: what it needs read for
  /// what it shows, and what it waited for (a zoom waits for the photo's
  /// size).
  mutating func afterEvent(app: AppState) -> ModeStep
  /// A report of one of its tasks (`ModeIntent.run`).
  mutating func receive(_ message: Message, app: AppState) -> ModeStep
  /// The pictures it shows, most wanted first; nil: the grid's tiles.
  func wantedImages(app: AppState) -> [ImageRequest]?

  /// Where it draws.
  var placement: ModePlacement { get }
  func draw(app: AppState, theme: Theme, into screen: inout Screen)
}

/// Where a mode draws: the whole screen instead of the grid, a box over the
/// grid (pictures hidden, as some terminals draw them above text), or the
/// bottom line under the grid.
public enum ModePlacement: Hashable, Sendable {
  case fullScreen, overGrid, bottomLine
}

/// What a mode asks of the app, carried out in order after its step.
public enum ModeIntent: Sendable {
  /// Enter: the picks are printed (remote ones downloaded first).
  case confirm
  /// Ctrl-C: the run ends with nothing picked, at once.
  case cancel
  /// `q`: the run ends, asking first when there are picks.
  case quit
  /// The selection: a photo added (as it is), removed, or either (within
  /// `--max`, which a refusal says).
  case pick(PickedPhoto)
  case unpick(SelectionKey)
  case togglePick(PickedPhoto)
  /// Another mode opened over this one.
  case open(any ModeModel)
  case notice(Notice)
  /// The grid under the modes: the focus, and what its keys do.
  case grid(GridIntent)
  /// A photo's facts (read once; a listed photo's are its listing's), and
  /// its sharpness score. `placed`: a date the index put on a clock the
  /// file alone does not tell (a clip placed by the photo nearest in time).
  case readFacts(ImageReference, name: String, listed: PhotoFacts?, placed: TakenDate? = nil)
  case scoreSharpness(ImageReference)
  /// The photos it shows now: facts and scores of any other are forgotten,
  /// and their reads not begun are dropped (`PhotoReadings.keep`).
  case keepReadings(Set<ImageReference>)
  /// Work outside the update, its reports coming back to this mode as
  /// its messages; stopped when the mode leaves.
  case run(ModeTask)
  /// The run ends with this outcome (a download done prints its paths).
  case finish(Outcome)
  /// The sign-in flow: the source is signed in (its mark goes, what failed
  /// loads again), or asks to sign in (again) with this prompt.
  case signedIn(sourceIndex: Int)
  case needsSignIn(sourceID: String, prompt: AuthPrompt, error: String)
  /// Stars, a reject, a label or an undo (`AppState+Culling`).
  case cull(CullingCommand, CullingTarget)
}

/// What a mode asks of the grid below it.
public enum GridIntent: Hashable, Sendable {
  /// The next or previous photo, passing folders, loading the next page.
  case step(by: Int)
  /// Space and Enter on the focused item, as in the grid.
  case toggleFocused, activateFocused
  /// Search as typed: the results of the words as a scope (replacing
  /// results on screen).
  case filter(String)
  /// Enter in search: the results stay, the words go in the history.
  case keepSearch(String)
  /// Esc in search (or a line emptied): the results typed go; the
  /// results on screen before, if any, come back as they were.
  case restoreResults(Scope?)
  /// The go-to-date prompt's answer.
  case goToDate(String)
}

/// What a mode's update asks for: intents for the app, and whether the
/// mode stays.
public struct ModeStep: Sendable {
  public var intents: [ModeIntent]
  /// The mode is done: back to the one below.
  public var leaves: Bool

  public init(intents: [ModeIntent], leaves: Bool) {
    self.intents = intents
    self.leaves = leaves
  }

  public static let stay = ModeStep(intents: [], leaves: false)
  public static let leave = ModeStep(intents: [], leaves: true)
  public static func run(_ intents: [ModeIntent]) -> ModeStep { ModeStep(intents: intents, leaves: false) }
  public static func leave(_ intents: [ModeIntent]) -> ModeStep { ModeStep(intents: intents, leaves: true) }
  /// Ctrl-C and the like: the picker ends with nothing picked.
  public static let cancel = ModeStep(intents: [.cancel], leaves: false)
}

extension ModeModel {
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] {
    let map = keys[Self.self]
    return [(map.title, map.helpLine)]
  }
  public mutating func update(mouse: MouseEvent, app: AppState) -> ModeStep { .stay }
  public mutating func afterEvent(app: AppState) -> ModeStep { .stay }
  public static var backAction: Action? { nil }
  public static var cancelAction: Action? { nil }
  public static var givesWayToSignIn: Bool { false }
  public static var carriesConfirmOut: Bool { false }
  public mutating func receive(_ message: Message, app: AppState) -> ModeStep { .stay }
  public func wantedImages(app: AppState) -> [ImageRequest]? { nil }
}
