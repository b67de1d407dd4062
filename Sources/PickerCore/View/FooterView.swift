/// The two bottom lines: the picked tray, then hints (or a message, or the
/// search prompt).
enum FooterView {
  static func draw(_ state: AppState, theme: Theme, into screen: inout Screen) {
    drawTray(state, theme: theme, y: screen.height - 2, into: &screen)
    drawBottomLine(state, theme: theme, y: screen.height - 1, into: &screen)
  }

  /// "Picked 3/10: IMG_3.jpg  IMG_7.jpg  sunset.png", scrolled so the tray's
  /// focus stays visible.
  static func drawTray(_ state: AppState, theme: Theme, y: Int, into screen: inout Screen) {
    let selection = state.selection
    let limit = state.options.limits.maximum.map { "/\($0)" } ?? ""
    let header = "Picked \(selection.count)\(limit)" + (selection.isEmpty ? "" : ":")
    var x = screen.put(header, x: 0, y: y, style: theme.text.bolded)
    if selection.isEmpty {
      screen.put("  (Space picks the focused photo)", x: x, y: y, style: theme.muted)
      return
    }
    var trayFocus = -1
    if case .tray(let focus) = state.mode { trayFocus = focus }
    let names = selection.photos.map { " " + DisplayWidth.truncate(Sanitizer.sanitize($0.title), to: 30) + " " }
    // Start late enough that the focused name fits on the line.
    var first = 0
    if trayFocus >= 0 {
      var width = names[...trayFocus].reduce(0) { $0 + DisplayWidth.of($1) + 1 }
      while first < trayFocus && x + width > screen.width {
        width -= DisplayWidth.of(names[first]) + 1
        first += 1
      }
    }
    if first > 0 { x += screen.put(" …", x: x, y: y, style: theme.muted) }
    for index in first..<names.count {
      x += 1
      let style = index == trayFocus ? theme.trayFocus : theme.text
      let used = screen.put(names[index], x: x, y: y, style: style, maxWidth: screen.width - x)
      if used < DisplayWidth.of(names[index]) { break }
      x += used
    }
  }

  static func drawBottomLine(_ state: AppState, theme: Theme, y: Int, into screen: inout Screen) {
    if case .search(let query) = state.mode {
      let prompt = "Search \(state.sources[state.activeSource].title): "
      let x = screen.put(prompt, x: 0, y: y, style: theme.keyLabel)
      let shown = DisplayWidth.truncateLeading(Sanitizer.sanitize(query), to: screen.width - x - 1)
      let end = x + screen.put(shown, x: x, y: y, style: theme.text)
      screen.put("█", x: end, y: y, style: theme.text)
      return
    }
    if let notice = state.notice {
      let style = notice.isError ? theme.error : theme.notice
      screen.put(DisplayWidth.truncate(notice.text, to: screen.width), x: 0, y: y, style: style)
      return
    }
    let hints: String
    if case .tray = state.mode {
      hints = "← → move · Space/x remove · Enter pick · Esc back to the grid"
    } else {
      hints = state.options.keyMap.hintLine
    }
    screen.put(DisplayWidth.truncate(hints, to: screen.width), x: 0, y: y, style: theme.muted)
  }
}
