/// Draws the whole UI for a state. Pure: the same state gives the same
/// screen, so every frame can be checked in a test without a terminal.
public enum AppView {
  /// The smallest terminal the grid is drawn in.
  public static let minimumSize = TerminalSize(width: 24, height: 9)

  public static func render(_ state: AppState, theme: Theme) -> Screen {
    var screen = Screen(width: state.size.width, height: state.size.height)
    guard state.size.width >= minimumSize.width, state.size.height >= minimumSize.height else {
      // What size it needs, so the user knows how far to grow it; the
      // lines fall back to shorter words on a very small terminal.
      let need = "\(minimumSize.width)×\(minimumSize.height)"
      let have = "\(state.size.width)×\(state.size.height)"
      let lines =
        state.size.width >= 30
        ? ["Terminal too small", "needs \(need), is \(have)"] : ["Terminal too small", "needs \(need)", "is \(have)"]
      for (y, line) in lines.enumerated() where y < state.size.height {
        // Clipped at the edge, not ended with "…": what fits reads as it is.
        screen.put(line, x: 0, y: y, style: theme.error)
      }
      return screen
    }
    let mode = state.topMode
    if let mode, mode.placement == .fullScreen {
      mode.draw(app: state, theme: theme, into: &screen)
      return screen
    }
    SourceBarView.draw(state, theme: theme, into: &screen)
    drawBreadcrumb(state, theme: theme, into: &screen)
    GridView.draw(state, theme: theme, into: &screen)
    TimelineScaleView.draw(state, theme: theme, into: &screen)
    FooterView.draw(state, theme: theme, into: &screen)
    guard let mode else { return screen }
    mode.draw(app: state, theme: theme, into: &screen)
    // Pictures sit above the text in some terminals: none under a box.
    if mode.placement == .overGrid { screen.images.removeAll() }
    return screen
  }

  /// "~/Pictures/Trip / Sea        1–12 of 40 · name"
  static func drawBreadcrumb(_ state: AppState, theme: Theme, into screen: inout Screen) {
    guard let scope = state.scope else { return }
    let stack = state.grid.scopeStacks[state.grid.activeSource]
    let path = stack.map(\.label).joined(separator: " / ")
    var status: String
    if !scope.hasLoadedOnce {
      status = "loading…"
    } else if scope.error != nil && scope.items.isEmpty {
      status = "load failed"
    } else {
      // Photos, not tiles: a stack counts each of its shots.
      let loaded = scope.loadedPhotoCount
      let total = scope.total.map(String.init) ?? (scope.hasMore ? "\(loaded)+" : "\(loaded)")
      // The span the grid holds, as a mail client says "1–50 of 2,345":
      // the same meaning before and after End jumps to the oldest page.
      let first = scope.baseOffset + 1
      let last = scope.baseOffset + loaded
      status = last > first ? "\(first)–\(last) of \(total)" : "\(last) of \(total)"
      if state.sources[state.grid.activeSource].capabilities.contains(.sorting) {
        status += " · \(scope.sort.rawValue)"
      }
      if scope.isLoading { status += " · loading…" }
    }
    let statusWidth = DisplayWidth.of(status)
    let pathWidth = max(0, screen.width - statusWidth - 2)
    screen.put(DisplayWidth.truncateLeading(path, to: pathWidth), x: 0, y: 1, style: theme.text.bolded)
    screen.put(status, x: screen.width - statusWidth, y: 1, style: theme.muted)
  }
}

extension Style {
  var bolded: Style {
    var style = self
    style.attributes.insert(.bold)
    return style
  }
}
