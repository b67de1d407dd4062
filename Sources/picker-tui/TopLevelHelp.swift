import ArgumentParser

/// `picker-tui --help`: someone typing it is looking for `-0` or `--max`,
/// which belong to the default `pick` subcommand. ArgumentParser's root help
/// lists only subcommands, so this puts pick's arguments and options first,
/// under the root's overview, then the other subcommands.
enum TopLevelHelp {
  /// True for the arguments that ask for the root's help.
  static func isAsked(_ arguments: [String]) -> Bool {
    arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"]
  }

  static func text(columns: Int? = nil) -> String {
    let root = PickerCommand.helpMessage(columns: columns)
    let pick = PickerCommand.helpMessage(for: Pick.self, columns: columns)
    let overview = section(of: root, before: "USAGE:")
    let usage = "USAGE: picker-tui [<options>] [<paths> ...]\n       picker-tui <subcommand>\n\n"
    let pickDetails = section(of: pick, from: "ARGUMENTS:")
    let subcommands = section(of: root, from: "SUBCOMMANDS:")
    return overview + usage + pickDetails.trimmingTrailingNewlines() + "\n\n" + subcommands
  }

  /// From `marker` (included) to the end; "" when absent.
  private static func section(of text: String, from marker: String) -> String {
    guard let range = text.range(of: marker) else { return "" }
    return String(text[range.lowerBound...])
  }

  /// Everything before `marker`.
  private static func section(of text: String, before marker: String) -> String {
    guard let range = text.range(of: marker) else { return text }
    return String(text[..<range.lowerBound])
  }
}

extension String {
  fileprivate func trimmingTrailingNewlines() -> String {
    var text = self
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
