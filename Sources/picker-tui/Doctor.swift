import ArgumentParser
import CNcurses
import Foundation
import PickerCore

/// `picker-tui doctor`: what the terminal was detected as, and why; the
/// lines people paste into bug reports.
struct Doctor: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the version and what the terminal can draw, and why.")

  @Option(help: "Thumbnails mode to decide for (as in the picker).")
  var thumbnails: ThumbnailMode = .auto

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    var lines = ["picker-tui \(pickerVersion)"]
    for name in ["TERM", "COLORTERM", "TERM_PROGRAM", "TMUX"] {
      lines.append("\(name)=\(environment[name] ?? "(unset)")")
    }
    guard pk_open_tty() >= 0 else {
      lines.append("no terminal: /dev/tty cannot be opened")
      print(lines.joined(separator: "\n"))
      throw PickerExit(code: 2, message: nil)
    }
    let probe = TerminalProbe.run(mode: thumbnails, environment: environment)
    lines.append("thumbnails: \(probe.support.graphics?.rawValue ?? (thumbnails == .off ? "off" : "symbols"))")
    if probe.support.usesPlaceholders { lines.append("kitty images as Unicode placeholders (tmux)") }
    lines += probe.support.reasons.map { "  " + $0 }
    if let notice = probe.support.notice { lines.append("note: " + notice) }
    print(lines.joined(separator: "\n"))
  }
}
