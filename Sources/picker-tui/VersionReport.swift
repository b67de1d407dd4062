import Foundation
import PickerCore
import PickerTUI

/// `picker-tui --version --verbose`: the version, the libraries it runs
/// with, and what the terminal was detected as — what a bug report needs.
/// ArgumentParser answers `--version` by itself, so main asks this first.
enum VersionReport {
  static func isAsked(_ arguments: [String]) -> Bool {
    arguments.count == 2 && Set(arguments) == ["--version", "--verbose"]
  }

  static func text(environment: [String: String]) -> String {
    var lines = ["picker-tui \(pickerVersion)"]
    lines += LibraryVersions.lines
    lines.append(NcursesTerminal.libraryVersion)
    lines.append(PlaceData.versionLine)
    lines.append("terminal:")
    lines += Doctor.terminalLines(mode: .auto, environment: environment).map { "  " + $0 }
    return lines.joined(separator: "\n")
  }
}
