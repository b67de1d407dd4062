/// The `?` overlay, generated from the key map so it cannot drift from it.
enum HelpView {
  static func draw(_ state: AppState, theme: Theme, into screen: inout Screen) {
    let rows = state.options.keyMap.helpRows
    let keyWidth = rows.map { DisplayWidth.of($0.keys) }.max() ?? 0
    let lines = rows.map { row in
      row.keys + String(repeating: " ", count: keyWidth - DisplayWidth.of(row.keys)) + "  " + row.help
    }
    let title = " Keys · any key closes "
    let width = min(screen.width - 2, max(DisplayWidth.of(title), lines.map(DisplayWidth.of).max() ?? 0) + 4)
    let height = min(screen.height - 2, lines.count + 2)
    let left = (screen.width - width) / 2
    let top = (screen.height - height) / 2
    screen.fill(x: left, y: top, width: width, height: height, style: theme.text)
    let horizontal = String(repeating: "─", count: width - 2)
    screen.put("╭" + horizontal + "╮", x: left, y: top, style: theme.keyLabel)
    screen.put(title, x: left + 2, y: top, style: theme.keyLabel)
    for row in 1..<(height - 1) {
      screen.put("│", x: left, y: top + row, style: theme.keyLabel)
      screen.put("│", x: left + width - 1, y: top + row, style: theme.keyLabel)
      let index = row - 1
      guard index < lines.count else { continue }
      let keys = rows[index].keys
      screen.put(keys, x: left + 2, y: top + row, style: theme.keyLabel)
      screen.put(
        rows[index].help, x: left + 2 + keyWidth + 2, y: top + row, style: theme.text, maxWidth: width - keyWidth - 6)
    }
    screen.put("╰" + horizontal + "╯", x: left, y: top + height - 1, style: theme.keyLabel)
  }
}
