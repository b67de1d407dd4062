/// The preview screen: the photo as large as the screen allows, a status
/// line, and on `i` a panel of the photo's facts on the right.
enum PreviewView {
  static func draw(_ state: AppState, preview: PreviewMode, theme: Theme, into screen: inout Screen) {
    let loupe = preview.loupe
    let area = state.previewPictureArea(zoomed: loupe != nil)
    if let item = state.previewedItem {
      if let key = state.previewKey(for: item, loupe: loupe) {
        var picture = state.thumbnails[key] ?? .loading
        // Zooming: the photo at fit stays until the view is made.
        if picture == .loading, key.loupe != nil, let fit = state.fitPreviewKey(for: item),
          case .ready? = state.thumbnails[fit]
        {
          picture = state.thumbnails[fit]!
        }
        drawPicture(
          picture, in: key.loupe != nil && picture != state.thumbnails[key] ? state.previewArea : area,
          theme: theme, into: &screen)
        if let loupe { MiniMapView.draw(state, loupe: loupe, theme: theme, into: &screen) }
        if state.thumbnails[key] == .loading, let progress = state.fetchProgress[key] {
          drawProgress(progress, in: area, theme: theme, into: &screen)
        }
      } else {
        let why = item.isMissing ? "✗ missing" : state.options.showsThumbnails ? "no picture" : "thumbnails are off"
        centered(why, in: area, style: item.isMissing ? theme.error : theme.muted, into: &screen)
      }
    } else {
      centered("Loading…", in: area, style: theme.muted, into: &screen)
    }
    if preview.showsFacts { drawFacts(state, x: state.previewArea.width, theme: theme, into: &screen) }
    drawStatus(state, loupe: loupe, theme: theme, y: screen.height - 1, into: &screen)
  }

  private static func drawPicture(
    _ picture: ThumbnailState, in area: (x: Int, y: Int, width: Int, height: Int), theme: Theme,
    into screen: inout Screen
  ) {
    switch picture {
    case .loading:
      centered("Loading…", in: area, style: theme.muted, into: &screen)
    case .failed(let message):
      centered("✗ " + message, in: area, style: theme.error, into: &screen)
    case .ready(let thumbnail):
      screen.draw(thumbnail, centredIn: area)
    }
  }

  /// Under "Loading…": "2.1 MB of 8.4 MB" and a bar when the size is known.
  private static func drawProgress(
    _ progress: FetchProgress, in area: (x: Int, y: Int, width: Int, height: Int), theme: Theme,
    into screen: inout Screen
  ) {
    var text = PhotoFacts.bytes(progress.received)
    if let expected = progress.expected, expected > 0 {
      text += " of " + PhotoFacts.bytes(expected)
      let width = min(40, max(10, area.width - 4))
      let filled = Int(Double(width) * min(1, Double(progress.received) / Double(expected)))
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      screen.put(bar, x: area.x + (area.width - width) / 2, y: area.y + area.height / 2 + 2, style: theme.notice)
    }
    let x = area.x + (area.width - DisplayWidth.of(text)) / 2
    screen.put(text, x: x, y: area.y + area.height / 2 + 1, style: theme.muted)
  }

  private static func drawFacts(_ state: AppState, x: Int, theme: Theme, into screen: inout Screen) {
    let width = screen.width - x
    guard width > 4 else { return }
    screen.fill(x: x, y: 0, width: width, height: screen.height - 1, style: theme.text)
    for y in 0..<(screen.height - 1) { screen.put("│", x: x, y: y, style: theme.border) }
    guard let item = state.previewedItem, let reference = state.previewReference(for: item) else { return }
    var facts = state.readings.facts[reference] ?? PhotoFacts(name: Sanitizer.sanitize(item.title), isLoading: true)
    // A verdict given since the facts were read is the one to say.
    if let given = item.outputPath.flatMap({ state.culling.given[$0] }), given != facts.metadata.culling {
      (facts.metadata.culling, facts.metadata.cullingOrigin) = (given, "given here")
    }
    var rows = facts.rows
    if let (score, count) = state.stackSharpness(of: item) {
      rows.append(("Sharpness", score == 100 ? "★ sharpest of a stack of \(count)" : "\(score) (stack of \(count))"))
    }
    // Tiles that could be taken for one another (a stack's photos, copies)
    // say where each file is; copies list every path.
    if state.stackSharpness(of: item) != nil || !item.copies.isEmpty, let path = item.outputPath {
      rows.append(("Folder", Sanitizer.sanitize(path.parentFolder.bytes)))
    }
    for copy in item.copies { rows.append(("Copy", Sanitizer.sanitize(copy.bytes))) }
    var y = 1
    for (label, value) in rows {
      guard y < screen.height - 2 else { break }
      screen.put(DisplayWidth.truncate(label, to: 11), x: x + 2, y: y, style: theme.muted)
      // Long values (names, lenses) wrap onto the next lines.
      for line in wrapWords(Sanitizer.sanitize(value), width: max(1, width - 15)) {
        guard y < screen.height - 2 else { break }
        screen.put(line, x: x + 14, y: y, style: theme.text)
        y += 1
      }
    }
  }

  /// `text` in lines of at most `width` columns, broken at spaces where a
  /// line has one ("(EXIF)" and "+02:00" stay whole); a word longer than a
  /// line breaks after a `/` (a path keeps its folders whole), else after
  /// a `_` or `-` or before a `.` (a file name keeps its extension), and
  /// only where there is none of these, at the width.
  static func wrapWords(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      var line = ""
      var count = 0
      while let next = rest.dropFirst(count).first, DisplayWidth.of(line + String(next)) <= width {
        line.append(next)
        count += 1
      }
      if count == 0 { break }
      if count < rest.count, let space = line.lastIndex(of: " "), space != line.startIndex {
        // Up to the space; the word after it starts the next line.
        let kept = line[..<space]
        lines.append(String(kept))
        rest = rest.dropFirst(kept.count + 1)
      } else if count < rest.count, let cut = wordBreak(in: line) {
        lines.append(String(line.prefix(cut)))
        rest = rest.dropFirst(cut)
      } else {
        lines.append(line)
        rest = rest.dropFirst(count)
      }
    }
    return lines
  }

  /// Where a line of one long word breaks best, as a count of characters
  /// kept: after its last `/`, else after a `_` or `-` or before a `.`.
  private static func wordBreak(in line: String) -> Int? {
    let characters = Array(line)
    func last(_ accept: (Character) -> Bool, after: Bool) -> Int? {
      guard let index = characters.indices.dropFirst().last(where: { accept(characters[$0]) }) else { return nil }
      let cut = after ? index + 1 : index
      return cut > 0 && cut < characters.count ? cut : nil
    }
    return last({ $0 == "/" }, after: true) ?? last({ $0 == "_" || $0 == "-" }, after: true)
      ?? last({ $0 == "." }, after: false)
  }

  /// "3/120 · IMG_3.jpg · ✓ picked    ←→ photo · Space select · Enter pick · i facts · Esc back"
  private static func drawStatus(_ state: AppState, loupe: Loupe?, theme: Theme, y: Int, into screen: inout Screen) {
    if let notice = state.notice {
      screen.put(
        DisplayWidth.truncate(notice.text, to: screen.width), x: 0, y: y,
        style: notice.isError ? theme.error : theme.notice)
      return
    }
    var left = ""
    if let scope = state.scope, let item = state.previewedItem, case .item(let index)? = scope.cell(at: scope.focus) {
      let total = scope.total.map(String.init) ?? "\(scope.loadedPhotoCount)\(scope.hasMore ? "+" : "")"
      left = "\(scope.listingOffset(ofItem: index) + 1)/\(total) · " + Sanitizer.sanitize(item.title)
      if let stack = item.stack { left += " · stack of \(stack.count)" }
      if let loupe { left += " · " + loupe.percent }
      if state.selection.contains(state.selectionKey(for: item)) { left += " · ✓ picked" }
      if let verdict = state.culling(of: item).summary { left += " · " + verdict }
    }
    // Zoomed in, ← → pan; p n go to the next photo.
    let hints = state.options.keys[PreviewMode.self].hintLine(
      replacing: loupe != nil ? [.previous: "pan · p n photo"] : [:])
    let hintsWidth = DisplayWidth.of(hints)
    let leftWidth = max(0, screen.width - hintsWidth - 2)
    screen.put(DisplayWidth.truncate(left, to: leftWidth), x: 0, y: y, style: theme.text.bolded)
    if screen.width >= hintsWidth { screen.put(hints, x: screen.width - hintsWidth, y: y, style: theme.muted) }
  }

  /// `text` in the middle of `area` (the compare's panes use it too).
  static func centered(
    _ text: String, in area: (x: Int, y: Int, width: Int, height: Int), style: Style, into screen: inout Screen
  ) {
    let shown = DisplayWidth.truncate(text, to: area.width)
    screen.put(shown, x: area.x + (area.width - DisplayWidth.of(shown)) / 2, y: area.y + area.height / 2, style: style)
  }
}
