import Foundation

/// The two bottom lines: the picked tray, then hints (or a message, or the
/// search prompt).
enum FooterView {
  static func draw(_ state: AppState, theme: Theme, into screen: inout Screen) {
    drawTray(state, focus: nil, theme: theme, y: screen.height - 2, into: &screen)
    drawBottomLine(state, theme: theme, y: screen.height - 1, into: &screen)
  }

  /// "Picked 3/10: IMG_3.jpg  IMG_7.jpg  sunset.png", scrolled so the tray's
  /// focus (when the tray has the keys) stays visible.
  static func drawTray(_ state: AppState, focus: Int?, theme: Theme, y: Int, into screen: inout Screen) {
    let selection = state.selection
    let limit = state.options.limits.maximum.map { "/\($0)" } ?? ""
    let header = "Picked \(selection.count)\(limit)" + (selection.isEmpty ? "" : ":")
    var x = screen.put(header, x: 0, y: y, style: theme.text.bolded)
    if selection.isEmpty {
      screen.put("  (Space picks the focused photo)", x: x, y: y, style: theme.muted)
      return
    }
    // How many came from each key that selected many ("45 of 14 Jun 2023").
    if !state.pickGroups.isEmpty {
      let groups = state.pickGroups.suffix(3).map { "\($0.picked) \($0.label)" }.joined(separator: " · ")
      x += screen.put(" (" + groups + ")", x: x, y: y, style: theme.muted, maxWidth: screen.width - x)
    }
    let trayFocus = focus ?? -1
    // Names are made only for what fits: thousands may be picked.
    func name(_ index: Int) -> String {
      let photo = selection.photos[index]
      let mark = state.confirmFlow.missingPicks.contains(photo.key) ? "✗ " : ""
      return " " + mark + DisplayWidth.truncate(Sanitizer.sanitize(photo.title), to: 30) + " "
    }
    // Start late enough that the focused name fits on the line.
    var first = 0
    if trayFocus >= 0 {
      first = trayFocus
      var width = DisplayWidth.of(name(trayFocus)) + 1
      while first > 0 {
        let before = DisplayWidth.of(name(first - 1)) + 1
        if x + width + before > screen.width { break }
        width += before
        first -= 1
      }
    }
    if first > 0 { x += screen.put(" …", x: x, y: y, style: theme.muted) }
    for index in first..<selection.count {
      x += 1
      guard x < screen.width else { break }
      let text = name(index)
      let isGone = state.confirmFlow.missingPicks.contains(selection.photos[index].key)
      let style = index == trayFocus ? theme.trayFocus : isGone ? theme.error : theme.text
      let used = screen.put(text, x: x, y: y, style: style, maxWidth: screen.width - x)
      if used < DisplayWidth.of(text) { break }
      x += used
    }
  }

  static func drawBottomLine(_ state: AppState, theme: Theme, y: Int, into screen: inout Screen) {
    if state.notice?.isHint ?? true,
      let status = state.sources.indices.contains(state.grid.activeSource)
        ? state.sources[state.grid.activeSource].status : nil, state.isOnGrid
    {
      screen.put(DisplayWidth.truncate(status, to: screen.width), x: 0, y: y, style: theme.notice)
      return
    }
    // A hint (the tmux passthrough advice at start) goes after the keys
    // when both fit, and gives way to them when not: a first screen
    // without key hints leaves a new user guessing.
    if let notice = state.notice, notice.isHint, !notice.isError {
      var hints = state.options.keys.grid.hintLine(replacing: state.hintWords)
      let both = hints + " · " + notice.text
      if DisplayWidth.of(both) <= screen.width { hints = both }
      drawHints(hints, theme: theme, y: y, into: &screen)
      return
    }
    if let notice = state.notice {
      let style = notice.isError ? theme.error : theme.notice
      screen.put(DisplayWidth.truncate(notice.text, to: screen.width), x: 0, y: y, style: style)
      return
    }
    var hints = state.options.keys.grid.hintLine(replacing: state.hintWords)
    // Tiles that look alike (a stack's photos, a photo with copies) say
    // which folder the focused one is in.
    if let folder = state.confusableFolder { hints = "in " + folder + " · " + hints }
    drawHints(hints, theme: theme, y: y, into: &screen)
  }

  /// A line of key hints, in place of what the line held.
  static func drawHints(_ hints: String, theme: Theme, y: Int, into screen: inout Screen) {
    screen.fill(x: 0, y: y, width: screen.width, height: 1, style: .plain)
    screen.put(DisplayWidth.truncate(hints, to: screen.width), x: 0, y: y, style: theme.muted)
  }

  /// A one-line prompt: what it asks, what is typed (its end kept in view),
  /// and a cursor.
  static func drawPrompt(_ prompt: String, typed: String, theme: Theme, y: Int, into screen: inout Screen) {
    screen.fill(x: 0, y: y, width: screen.width, height: 1, style: .plain)
    let x = screen.put(prompt, x: 0, y: y, style: theme.keyLabel)
    let shown = DisplayWidth.truncateLeading(Sanitizer.sanitize(typed), to: screen.width - x - 1)
    let end = x + screen.put(shown, x: x, y: y, style: theme.text)
    screen.put("█", x: end, y: y, style: theme.text)
  }

  /// A question asked on the bottom line (leaving with picks).
  static func drawQuestion(_ question: String, theme: Theme, y: Int, into screen: inout Screen) {
    screen.fill(x: 0, y: y, width: screen.width, height: 1, style: .plain)
    screen.put(DisplayWidth.truncate(question, to: screen.width), x: 0, y: y, style: theme.keyLabel)
  }

  /// "Downloading 2/5 [██████░░░░░░] 40% · 3.1 MB · Esc cancels"
  static func drawProgress(_ progress: DownloadProgress, theme: Theme, y: Int, into screen: inout Screen) {
    let done = min(progress.files, progress.finished + (progress.finished < progress.files ? 1 : 0))
    let head = "Downloading \(done)/\(progress.files) "
    let tail = " \(Int(progress.fraction * 100))% · \(megabytes(progress.totalReceived)) · Esc cancels"
    let barWidth = max(4, min(30, screen.width - DisplayWidth.of(head) - DisplayWidth.of(tail) - 2))
    let filled = Int((progress.fraction * Double(barWidth)).rounded(.down))
    let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
    screen.put(DisplayWidth.truncate(head + bar + tail, to: screen.width), x: 0, y: y, style: theme.notice)
  }

  static func megabytes(_ bytes: Int64) -> String {
    bytes < 1 << 20 ? "\(bytes >> 10) KB" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
  }
}

extension AppState {
  /// The folder of the focused photo when it could be taken for another: a
  /// photo of an opened stack, or one with copies elsewhere.
  var confusableFolder: String? {
    guard let item = focusedItem, let path = item.outputPath else { return nil }
    var inStack = false
    if case .stack = scope?.kind { inStack = true }
    guard inStack || !item.copies.isEmpty else { return nil }
    return Sanitizer.sanitize(path.parentFolder.bytes)
  }

  /// The hint line's words where the focused cell changes them: Enter's,
  /// Space's on a stack, and Esc's, hinted only where it goes back rather
  /// than cancels.
  var hintWords: [GridAction: String] {
    var words: [GridAction: String] = [:]
    if let hint = activationHint { words[.activate] = hint }
    if focusedItem?.stack != nil { words[.toggle] = "picks the sharpest" }
    if grid.scopeStacks.indices.contains(grid.activeSource), grid.scopeStacks[grid.activeSource].count <= 1 {
      words[.back] = ""
    }
    return words
  }

  /// What Enter does on the focused cell, for the hint line; nil on a photo
  /// (the key map's own hint, "pick").
  var activationHint: String? {
    guard let scope, let cell = scope.cell(at: scope.focus) else { return nil }
    switch cell {
    case .back: return "back"
    case .loadMore: return scope.error != nil ? "retry" : "load more"
    case .item(let index):
      if case .folder = scope.items[index].kind { return "open" }
      // Enter opens a stack; Space picks its sharpest photo.
      if scope.items[index].stack != nil { return "open" }
      return nil
    }
  }
}
