/// The styles of the picker's chrome, by role.
///
/// Colours come from the 16 ANSI ones so they survive every depth; a
/// monochrome theme keeps things readable with attributes alone (NO_COLOR).
public struct Theme: Hashable, Sendable {
  public var text: Style
  public var muted: Style
  public var activeSource: Style
  public var inactiveSource: Style
  public var border: Style
  public var focusBorder: Style
  public var selectedBorder: Style
  public var focusCaption: Style
  public var selectedMark: Style
  public var placeholder: Style
  public var folder: Style
  public var error: Style
  public var notice: Style
  public var trayFocus: Style
  public var keyLabel: Style
  /// A photo's stars, its reject, and the colour labels (red, yellow,
  /// green, blue, purple in `ColorLabel`'s order).
  public var stars = Style(foreground: .palette(11))
  public var rejected = Style(foreground: .palette(9))
  public var labels: [Style] = [9, 11, 10, 12, 13].map { Style(foreground: .palette($0), attributes: .bold) }
  /// Without colour a label is its initial.
  public var labelsByLetter = false

  public func label(_ label: ColorLabel) -> Style { labels[label.rawValue - 1] }
  public func labelMark(_ label: ColorLabel) -> String {
    labelsByLetter ? String(label.xmpName.prefix(1)) : "●"
  }

  public static let colored = Theme(
    text: Style(),
    muted: Style(foreground: .palette(8)),
    activeSource: Style(foreground: .palette(0), background: .palette(6), attributes: .bold),
    inactiveSource: Style(foreground: .palette(7)),
    border: Style(foreground: .palette(8)),
    focusBorder: Style(foreground: .palette(11), attributes: .bold),
    selectedBorder: Style(foreground: .palette(10)),
    focusCaption: Style(attributes: [.reverse, .bold]),
    selectedMark: Style(foreground: .palette(10), attributes: .bold),
    placeholder: Style(foreground: .palette(8)),
    folder: Style(foreground: .palette(12), attributes: .bold),
    error: Style(foreground: .palette(9), attributes: .bold),
    notice: Style(foreground: .palette(11)),
    trayFocus: Style(attributes: .reverse),
    keyLabel: Style(foreground: .palette(6), attributes: .bold))

  public static let monochrome = Theme(
    text: Style(),
    muted: Style(),
    activeSource: Style(attributes: [.reverse, .bold]),
    inactiveSource: Style(),
    border: Style(),
    focusBorder: Style(attributes: .bold),
    selectedBorder: Style(),
    focusCaption: Style(attributes: [.reverse, .bold]),
    selectedMark: Style(attributes: .bold),
    placeholder: Style(),
    folder: Style(attributes: .bold),
    error: Style(attributes: .bold),
    notice: Style(attributes: .underline),
    trayFocus: Style(attributes: .reverse),
    keyLabel: Style(attributes: .bold)
  ).withoutColoredVerdicts()

  private func withoutColoredVerdicts() -> Theme {
    var theme = self
    theme.stars = Style(attributes: .bold)
    theme.rejected = Style(attributes: .bold)
    theme.labels = Array(repeating: Style(attributes: .bold), count: ColorLabel.allCases.count)
    theme.labelsByLetter = true
    return theme
  }
}
