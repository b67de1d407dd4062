/// How many colours the picker draws with, which terminfo entry gives
/// them, and why they are fewer than asked or than the terminal may have
/// (`doctor` prints the reasons).
public struct ColorPlan: Hashable, Sendable {
  public var depth: ColorDepth
  /// The entry ncurses starts with: a `*-direct` one for 24-bit colours.
  public var terminfoName: String
  /// Why colours were lowered; empty when nothing was.
  public var reasons: [String] = []

  /// `colors(name)`: the colour count of a terminfo entry, nil when there
  /// is none. Kitty placeholder ids travel as palette colours, so they
  /// keep the picker off 24-bit colours.
  public static func decide(
    requested: ColorDepth?, environment: [String: String], term: String, usesPlaceholders: Bool,
    colors: (String) -> Int?
  ) -> ColorPlan {
    let termColors = colors(term) ?? 0
    var availableCount = termColors
    var plan = ColorPlan(depth: .none, terminfoName: term)
    var available = ColorDepth.forTerminal(colors: termColors)
    let colorterm = environment["COLORTERM"] ?? ""
    let saysTruecolor = ["truecolor", "24bit"].contains(colorterm)
    let wantsTruecolor = requested == .truecolor || (requested == nil && saysTruecolor)
    if wantsTruecolor && termColors >= 8 {
      if usesPlaceholders {
        plan.reasons.append("no 24-bit colours: kitty images in tmux name their image by a 256-colour index")
      } else if let direct = directVariants(of: term).first(where: { (colors($0) ?? 0) > 0 }),
        let count = colors(direct)
      {
        plan.terminfoName = direct
        availableCount = count
        available = ColorDepth.forTerminal(colors: count)
      } else {
        plan.reasons.append(
          "no 24-bit colours: TERM=\(term) has no *-direct terminfo entry (use TERM=tmux-256color or xterm-256color; "
            + "ncurses-term has tmux-direct and xterm-direct)")
      }
    } else if requested == nil && available == .palette256 {
      plan.reasons.append(
        "no 24-bit colours: COLORTERM=\(colorterm.isEmpty ? "(unset)" : colorterm) does not say truecolor or 24bit")
    }
    var chosen = requested ?? available
    if requested == nil, let noColor = environment["NO_COLOR"], !noColor.isEmpty {
      chosen = .none
      plan.reasons.append("no colours: NO_COLOR is set")
    }
    if rank(chosen) > rank(available) {
      plan.reasons.append(
        "--colors \(chosen.rawValue) lowered to \(available.rawValue): \(plan.terminfoName) has \(availableCount)")
      chosen = available
    }
    plan.depth = chosen
    return plan
  }

  /// The `*-direct` entries that may stand for a terminal, best first:
  /// itself, its family's (tmux, xterm), or its first name's (foot-extra:
  /// foot-direct).
  static func directVariants(of term: String) -> [String] {
    if term.hasSuffix("-direct") { return [term] }
    var names: [String] = []
    if term.hasPrefix("tmux") { names.append("tmux-direct") }
    if term.hasPrefix("xterm") { names.append("xterm-direct") }
    if let family = term.split(separator: "-").first, !family.isEmpty { names.append("\(family)-direct") }
    return names
  }

  package static func rank(_ depth: ColorDepth) -> Int { ColorDepth.allCases.firstIndex(of: depth)! }
}
