/// The top line: one tab per source, "[1 Files] [2 Picked]".
enum SourceBarView {
  static func labels(_ state: AppState) -> [String] {
    state.sources.enumerated().map { index, source in
      let mark = state.signInNeeded[index] != nil ? "*" : ""
      return "[\(index + 1) \(Sanitizer.sanitize(source.title))\(mark)]"
    }
  }

  static func draw(_ state: AppState, theme: Theme, into screen: inout Screen) {
    var x = 0
    for (index, label) in labels(state).enumerated() {
      let style = index == state.activeSource ? theme.activeSource : theme.inactiveSource
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
