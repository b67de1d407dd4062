extension Screen {
  /// A box over what is drawn (help, a sign-in form): filled, a rounded
  /// border in the key colour, the title set into its top edge.
  mutating func drawBox(title: String, x left: Int, y top: Int, width: Int, height: Int, theme: Theme) {
    fill(x: left, y: top, width: width, height: height, style: theme.text)
    let horizontal = String(repeating: "─", count: width - 2)
    put("╭" + horizontal + "╮", x: left, y: top, style: theme.keyLabel)
    put(title, x: left + 2, y: top, style: theme.keyLabel)
    for row in 1..<(height - 1) {
      put("│", x: left, y: top + row, style: theme.keyLabel)
      put("│", x: left + width - 1, y: top + row, style: theme.keyLabel)
    }
    put("╰" + horizontal + "╯", x: left, y: top + height - 1, style: theme.keyLabel)
  }
}
