/// Compare: each shown photo in its pane with two caption lines (name and
/// pick mark; when taken and how), the active pane's marked, and a status
/// line with the page, the zoom and the keys.
enum CompareView {
  static func draw(_ compare: CompareState, state: AppState, theme: Theme, into screen: inout Screen) {
    let panes = state.comparePanes(compare)
    let scores = state.compareScores(compare)
    for (index, (photo, pane)) in zip(compare.shown, panes).enumerated() {
      let picture = (x: pane.x, y: pane.y, width: pane.width, height: pane.pictureHeight)
      if let key = state.compareKey(for: photo, in: pane, loupe: compare.loupe) {
        var shown = state.thumbnails[key] ?? .loading
        // Zooming: the photo at fit stays until the view is made.
        if shown == .loading, key.loupe != nil, let fit = state.compareKey(for: photo, in: pane, loupe: nil),
          case .ready? = state.thumbnails[fit]
        {
          shown = state.thumbnails[fit]!
        }
        switch shown {
        case .ready(let thumbnail): screen.draw(thumbnail, centredIn: picture)
        case .loading: PreviewView.centered("Loading…", in: picture, style: theme.muted, into: &screen)
        case .failed(let message): PreviewView.centered("✗ " + message, in: picture, style: theme.error, into: &screen)
        }
      }
      let active = index == compare.active
      let picked = state.selection.contains(photo.key) ? "✓ " : ""
      let verdict = state.culling(of: photo).summary.map { " · " + $0 } ?? ""
      let name =
        "\(active ? "▶ " : "  ")\(compare.first + index + 1)/\(compare.photos.count) \(picked)"
        + Sanitizer.sanitize(photo.title) + verdict
      let captionY = pane.y + pane.pictureHeight
      screen.put(
        DisplayWidth.truncate(name, to: pane.width), x: pane.x, y: captionY,
        style: active ? theme.notice.bolded : theme.text)
      var line = summary(state.readings.facts[photo.reference])
      if let score = scores[index] {
        // 0-100 of the sharpest shown; ★ marks it.
        line = (score == 100 ? "★ sharpest" : "sharpness \(score)") + (line.isEmpty ? "" : " · " + line)
      }
      screen.put(
        DisplayWidth.truncate("  " + line, to: pane.width), x: pane.x, y: captionY + 1,
        style: scores[index] == 100 ? theme.notice : theme.muted)
    }
    drawStatus(compare, state: state, theme: theme, y: screen.height - 1, into: &screen)
  }

  /// "2023:06:14 10:15:00 · 1/250 s · f/2.8 · ISO 200 · 35 mm · Lisbon",
  /// what is known.
  static func summary(_ facts: PhotoFacts?) -> String {
    guard let facts else { return "" }
    if facts.isLoading { return "reading…" }
    var parts: [String] = []
    if let taken = facts.dateTaken { parts.append(Sanitizer.sanitize(Array(taken.utf8))) }
    if let seconds = facts.metadata.exposureSeconds { parts.append(PhotoFacts.exposure(seconds)) }
    if let f = facts.metadata.fNumber { parts.append("f/" + PhotoFacts.decimal(f, digits: 1)) }
    if let iso = facts.metadata.iso { parts.append("ISO \(iso)") }
    if let focal = facts.metadata.focalLength { parts.append(PhotoFacts.decimal(focal, digits: 0) + " mm") }
    if let place = facts.placeName { parts.append(Sanitizer.sanitize(place)) }
    return parts.joined(separator: " · ")
  }

  private static func drawStatus(
    _ compare: CompareState, state: AppState, theme: Theme, y: Int, into screen: inout Screen
  ) {
    if let notice = state.notice {
      screen.put(
        DisplayWidth.truncate(notice.text, to: screen.width), x: 0, y: y,
        style: notice.isError ? theme.error : theme.notice)
      return
    }
    let last = compare.first + compare.shown.count
    var left = "Compare \(compare.first + 1)–\(last) of \(compare.photos.count)"
    if let loupe = compare.loupe { left += " · " + loupe.percent }
    let hints = state.options.keys[CompareMode.self].hintLine
    let hintsWidth = DisplayWidth.of(hints)
    screen.put(
      DisplayWidth.truncate(left, to: max(0, screen.width - hintsWidth - 2)), x: 0, y: y, style: theme.text.bolded)
    if screen.width >= hintsWidth + 2 { screen.put(hints, x: screen.width - hintsWidth, y: y, style: theme.muted) }
  }
}
