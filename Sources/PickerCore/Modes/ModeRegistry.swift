/// The modes the picker has, in the order help and the config list them.
/// Registering a mode gives it a `[keys.NAME]` table, its help rows and,
/// when it says how (`ModeModel.opening`), the grid keys that open it. The
/// registry travels with the key maps (`KeyMaps.register`), so a program
/// embedding the picker adds a mode with one line, before it reads the
/// config.
public struct ModeRegistry: Hashable, @unchecked Sendable {
  /// Metatypes of Sendable types, never changed once registered.
  public private(set) var modes: [any ModeModel.Type]

  public static let standard = ModeRegistry(modes: [
    TrayMode.self,
    SearchPrompt.self,
    DatePrompt.self,
    PreviewMode.self,
    CompareMode.self,
    SignInMode.self,
    HelpMode.self,
    DownloadMode.self,
    QuitConfirm.self,
  ])

  /// Adds a mode after the others; one of a name already there is ignored.
  public mutating func register(_ mode: any ModeModel.Type) {
    guard self.mode(named: mode.name) == nil else { return }
    modes.append(mode)
  }

  public func mode(named name: String) -> (any ModeModel.Type)? {
    modes.first { $0.name == name }
  }

  /// The modes' config names, in order.
  public var names: [String] { modes.map { $0.name } }

  public static func == (lhs: ModeRegistry, rhs: ModeRegistry) -> Bool {
    lhs.names == rhs.names
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(names) }
}

/// How the grid opens a mode: its keys there (rebindable as
/// `[keys.NAME] open`), help's words for them, and the mode made from the
/// app's state, or the reason it cannot open now.
public struct ModeOpening<Mode: ModeModel>: Sendable {
  public var keys: [Key]
  public var help: String
  public var make: @Sendable (AppState) -> Opened<Mode>

  public init(keys: [Key], help: String, make: @escaping @Sendable (AppState) -> Opened<Mode>) {
    self.keys = keys
    self.help = help
    self.make = make
  }
}

/// A mode the grid opened, or why it did not (said in the notice).
public enum Opened<Mode: Sendable>: Sendable {
  case mode(Mode)
  case refused(Notice)
}

extension ModeModel {
  /// No grid key opens it: another mode or the app does.
  public static var opening: ModeOpening<Self>? { nil }

  /// The opening's keys before the config rebinds them.
  static var standardOpeningKeys: [Key] { opening?.keys ?? [] }
  static var openingHelp: String? { opening?.help }

  /// The mode the grid opens, or why not; nil when the grid does not.
  static func openFromGrid(_ app: AppState) -> Opened<any ModeModel>? {
    switch opening?.make(app) {
    case .mode(let mode)?: .mode(mode)
    case .refused(let notice)?: .refused(notice)
    case nil: nil
    }
  }
}
