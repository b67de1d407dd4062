/// The top line: one tab per source, "[1 ▤ Files] [2 ✓ Picked]".
enum SourceBarView {
  static func labels(_ state: AppState) -> [String] {
    state.sources.enumerated().map { index, source in
      let mark = state.sources[index].signInNeeded != nil ? "*" : ""
      let icon = Self.icon(state.options.sourceIcons[source.id] ?? source.icon, ascii: state.options.asciiIcons)
      let title = Sanitizer.sanitize(source.title)
      return "[\(index + 1) \(icon.isEmpty ? "" : icon + " ")\(title)\(mark)]"
    }
  }

  /// The icon as drawn: one or two columns of it, or its ASCII stand-in
  /// where the locale is not UTF-8; nothing for an empty one.
  static func icon(_ glyph: String, ascii: Bool) -> String {
    let safe = DisplayWidth.truncate(Sanitizer.sanitize(Array(glyph.utf8)), to: 2)
    guard ascii, !safe.unicodeScalars.allSatisfy(\.isASCII) else { return safe }
    return asciiStandIns[safe] ?? "-"
  }

  /// The built-in sources' glyphs in ASCII.
  static let asciiStandIns = ["▤": "#", "✓": "+", "☁": "@", "⚙": "&", "▣": "*", "◆": "*", "◷": "%"]

  static func draw(_ state: AppState, theme: Theme, into screen: inout Screen) {
    var x = 0
    for (index, label) in labels(state).enumerated() {
      let style = index == state.grid.activeSource ? theme.activeSource : theme.inactiveSource
      x += screen.put(label, x: x, y: 0, style: style, maxWidth: screen.width - x)
      x += 1
    }
    let picked = "\(state.selection.count) picked"
    let width = DisplayWidth.of(picked)
    if x + width < screen.width {
      screen.put(picked, x: screen.width - width, y: 0, style: theme.muted)
    }
  }

  /// The source whose tab is at column `x`.
  static func source(at x: Int, in state: AppState) -> Int? {
    var start = 0
    for (index, label) in labels(state).enumerated() {
      let end = start + DisplayWidth.of(label)
      if x >= start && x < end { return index }
      start = end + 1
    }
    return nil
  }
}
