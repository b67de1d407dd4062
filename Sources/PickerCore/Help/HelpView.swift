/// The `?` overlay, generated from the key map so it cannot drift from it.
enum HelpView {
  static func draw(_ state: AppState, scroll: Int, theme: Theme, into screen: inout Screen) {
    // The grid's keys, then each of the other modes, wrapped to the screen.
    let keys = state.options.keys
    let given = keys.grid.gridHelpRows + keys.openingHelpRows + [("", "")] + keys.modeHelpRows
    let keyWidth = given.map { DisplayWidth.of($0.keys) }.max() ?? 0
    let textWidth = max(10, screen.width - keyWidth - 8)
    var rows = given.flatMap { row in
      wrap(row.help, width: textWidth).enumerated().map { (index, part) in
        (keys: index == 0 ? row.keys : "", help: part)
      }
    }
    // Too short a screen for every key: it scrolls, and says so.
    var title = " Keys · any key closes "
    let room = screen.height - 4
    if rows.count > room, room > 2 {
      let first = min(scroll, rows.count - room + 1)
      let last = min(rows.count, first + room - 1)
      let more = last < rows.count ? "↓ more" : "the end"
      rows = Array(rows[first..<last]) + [(keys: "…", help: "\(more) (↑ ↓ PgUp PgDn scroll)")]
      title = " Keys · ↑ ↓ scroll · other keys close "
    }
    let lines = rows.map { row in
      row.keys + String(repeating: " ", count: keyWidth - DisplayWidth.of(row.keys)) + "  " + row.help
    }
    let width = min(screen.width - 2, max(DisplayWidth.of(title), lines.map(DisplayWidth.of).max() ?? 0) + 4)
    let height = min(screen.height - 2, lines.count + 2)
    let left = (screen.width - width) / 2
    let top = (screen.height - height) / 2
    screen.drawBox(title: title, x: left, y: top, width: width, height: height, theme: theme)
    for row in 1..<(height - 1) {
      let index = row - 1
      guard index < lines.count else { continue }
      screen.put(rows[index].keys, x: left + 2, y: top + row, style: theme.keyLabel)
      screen.put(
        rows[index].help, x: left + 2 + keyWidth + 2, y: top + row, style: theme.text, maxWidth: width - keyWidth - 6)
    }
  }

  /// `text` in lines of at most `width` columns, broken after " · ".
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for part in text.components(separatedBy: " · ") {
      let joined = line.isEmpty ? part : line + " · " + part
      if DisplayWidth.of(joined) <= width || line.isEmpty {
        line = joined
      } else {
        lines.append(line)
        line = part
      }
    }
    return lines + [line]
  }
}
