/// What a culling key asks, in the grid, the preview and compare alike.
public enum CullingCommand: Hashable, Sendable {
  /// 0…5 stars (0 clears them; a reject ends).
  case rate(Int)
  /// Rejected, or back to unrated when every target already is.
  case toggleReject
  /// The label, or none when every target already has it (Lightroom's way).
  case toggleLabel(ColorLabel)
  /// The last change taken back.
  case undo

  /// The config's action name (`[keys]`, `[keys.preview]`, `[keys.compare]`).
  public var name: String {
    switch self {
    case .rate(let stars): "rate-\(stars)"
    case .toggleReject: "reject"
    case .toggleLabel(let label): "label-\(label.name)"
    case .undo: "undo"
    }
  }

  public static let all: [CullingCommand] =
    (0...5).map(CullingCommand.rate) + [.toggleReject] + ColorLabel.allCases.map(CullingCommand.toggleLabel) + [.undo]
}

extension KeyMap {
  /// The culling keys of a map whose actions wrap `CullingCommand`.
  /// Everywhere: Alt with a digit (Alt-0 clears the stars, Alt-1…5 stars,
  /// Alt-6…9 red, yellow, green, blue), X rejects, u undoes. Where the
  /// mode leaves the digits free (`plainDigits`: the preview, compare),
  /// Lightroom's own keys too: 1–5 stars, 6–9 labels. The grid's digits
  /// choose sources; `[keys] rate-3 = "3"` takes one for rating.
  static func cullingBindings(plainDigits: Bool, _ wrap: (CullingCommand) -> Command) -> [Binding] {
    let group = plainDigits ? "stars 0-5, labels 6-9 (also with Alt)" : "Alt-0…5 stars, Alt-6…9 labels"
    func keys(_ n: Int) -> [Key] {
      let digit = Character(String(n))
      return (plainDigits && n > 0 ? [.char(digit)] : []) + [.alt(digit)]
    }
    let labels: [ColorLabel] = [.red, .yellow, .green, .blue]
    return (0...5).map { n in
      Binding(keys(n), wrap(.rate(n)), help: n == 0 ? "no stars" : "\(n) stars", group: group)
    }
      + labels.enumerated().map { offset, label in
        Binding(keys(6 + offset), wrap(.toggleLabel(label)), help: "label \(label.name)", group: group)
      }
      + [
        Binding([], wrap(.toggleLabel(.purple)), help: "label purple"),
        Binding([.char("X")], wrap(.toggleReject), help: "reject / unreject", group: "reject / undo the last verdict"),
        Binding([.char("u")], wrap(.undo), help: "undo", group: "reject / undo the last verdict"),
      ]
  }
}

/// A mode's actions that include the culling ones under their names.
public protocol CullingActions: RawRepresentable where RawValue == String {}

extension CullingActions {
  /// The culling command this action is, if it is one.
  var culling: CullingCommand? { CullingCommand.all.first { $0.name == rawValue } }

  init(culling command: CullingCommand) { self.init(rawValue: command.name)! }
}

/// Whose verdict a culling key changes.
public enum CullingTarget: Hashable, Sendable {
  /// The grid's focused photo; when it is selected, every selected photo.
  case focused
  /// The grid's focused photo alone (the preview's: Lightroom's loupe
  /// rates the photo shown, whatever is selected).
  case focusedAlone
  case photos([PickedPhoto])
}
