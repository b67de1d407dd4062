import ArgumentParser
import Foundation
import PickerTUI

/// `picker-tui doctor`: what the terminal was detected as, and why; the
/// lines people paste into bug reports.
struct Doctor: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the version and what the terminal can draw, and why.")

  @Option(help: "Thumbnails mode to decide for (as in the picker).")
  var thumbnails: ThumbnailMode = .auto

  @Option(help: "Colours to decide for (as in the picker): auto, none, 8, 16, 256 or truecolor.")
  var colors: ColorChoice = .auto

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let lines =
      ["picker-tui \(pickerVersion)"]
      + Self.terminalLines(mode: thumbnails, colors: colors.depth, environment: environment)
    print(lines.joined(separator: "\n"))
    if !Self.hasTerminal { throw PickerExit(code: 2, message: nil) }
  }

  private static var hasTerminal: Bool { TerminalProbe.openTerminal() }

  /// TERM and friends, then what the terminal answered and what that means
  /// for thumbnails (or that there is no terminal to ask).
  static func terminalLines(mode: ThumbnailMode, colors: ColorDepth? = nil, environment: [String: String])
    -> [String]
  {
    var lines: [String] = []
    for name in ["TERM", "COLORTERM", "TERM_PROGRAM", "TMUX"] {
      lines.append("\(name)=\(environment[name] ?? "(unset)")")
    }
    guard hasTerminal else {
      lines.append("no terminal: /dev/tty cannot be opened")
      return lines
    }
    let probe = TerminalProbe.run(mode: mode, environment: environment)
    lines.append("thumbnails: \(probe.support.graphics?.rawValue ?? (mode == .off ? "off" : "symbols"))")
    if probe.support.usesPlaceholders { lines.append("kitty images as Unicode placeholders (tmux)") }
    lines += probe.support.reasons.map { "  " + $0 }
    if let notice = probe.support.notice { lines.append("note: " + notice) }
    // Colours, and why fewer than asked or than the terminal may have.
    let plan = NcursesTerminal.colorPlan(
      requested: colors, environment: environment, usesPlaceholders: probe.support.usesPlaceholders)
    lines.append("colours: \(plan.depth.rawValue) (terminfo \(plan.terminfoName))")
    lines += plan.reasons.map { "  " + $0 }
    lines.append(MarkFonts.line())
    return lines
  }
}
