/// One bordered tile: the thumbnail area and a caption.
enum TileView {
  enum Content {
    case back
    /// `progress` ("1200 of 20000") is shown under "Loading…" when known.
    case loadMore(count: Int, loading: Bool, failed: Bool, progress: String? = nil)
    case item(PhotoItem, Picture)
  }

  /// What a photo tile shows in its picture area.
  enum Picture {
    case off
    case pending
    case ready(Thumbnail)
    case failed(String)

    var isOff: Bool {
      if case .off = self { return true }
      return false
    }

    init(_ state: ThumbnailState) {
      switch state {
      case .loading: self = .pending
      case .ready(let thumbnail): self = .ready(thumbnail)
      case .failed(let message): self = .failed(message)
      }
    }
  }

  private struct Border {
    let topLeft, top, topRight, side, bottomLeft, bottomRight: String
    static let light = Border(topLeft: "┌", top: "─", topRight: "┐", side: "│", bottomLeft: "└", bottomRight: "┘")
    static let heavy = Border(topLeft: "┏", top: "━", topRight: "┓", side: "┃", bottomLeft: "┗", bottomRight: "┛")
  }

  static func draw(
    _ content: Content, at origin: (x: Int, y: Int), layout: GridLayout, focused: Bool, selected: Bool,
    theme: Theme, into screen: inout Screen
  ) {
    let (x, y) = origin
    let innerWidth = layout.thumbnailWidth
    let thumbHeight = layout.thumbnailHeight
    let border = focused ? Border.heavy : Border.light
    let borderStyle = focused ? theme.focusBorder : selected ? theme.selectedBorder : theme.border
    let horizontal = String(repeating: border.top, count: innerWidth)
    screen.put(border.topLeft + horizontal + border.topRight, x: x, y: y, style: borderStyle)
    for row in 1...(thumbHeight + 1) {
      screen.put(border.side, x: x, y: y + row, style: borderStyle)
      screen.put(border.side, x: x + innerWidth + 1, y: y + row, style: borderStyle)
    }
    screen.put(border.bottomLeft + horizontal + border.bottomRight, x: x, y: y + thumbHeight + 2, style: borderStyle)
    if selected {
      screen.put("✓", x: x + innerWidth, y: y, style: theme.selectedMark)
    }
    if case .item(let item, _) = content {
      // A stack's count and a photo's copies on the top border, where
      // pixels never reach.
      var marks: [String] = []
      if case .folder(let count?) = item.kind, item.thumbnail != nil { marks.append("▤\(count)") }
      if let stack = item.stack { marks.append("×\(stack.count)") }
      if !item.copies.isEmpty { marks.append("◫\(item.copies.count + 1)") }
      if item.isLive { marks.append("LIVE") }
      if item.isVideo { marks.append("▶" + (item.videoSeconds.map { " " + VideoLength.text($0) } ?? "")) }
      if !marks.isEmpty {
        screen.put(
          DisplayWidth.truncate(marks.joined(separator: " "), to: max(0, innerWidth - 1)), x: x + 1, y: y,
          style: theme.notice)
      }
    }
    if case .item(let item, _) = content, !item.culling.isEmpty {
      drawCulling(item.culling, x: x, y: y + thumbHeight + 2, width: innerWidth, theme: theme, into: &screen)
    }
    let area = (x: x + 1, y: y + 1, width: innerWidth, height: thumbHeight)
    var caption: String
    var captionStyle = theme.text
    switch content {
    case .back:
      centered(["..", "Back"], in: area, style: theme.folder, into: &screen)
      caption = ".. Back"
    case .loadMore(let count, let loading, let failed, let progress):
      let text = failed ? "Retry" : loading ? "Loading…" : "Load \(count) more…"
      var lines = wrap(text, width: innerWidth)
      if loading && !failed, let progress, lines.count < thumbHeight { lines += wrap(progress, width: innerWidth) }
      centered(lines, in: area, style: failed ? theme.error : theme.notice, into: &screen)
      caption = failed ? "Retry loading" : "Load more"
    case .item(let item, let thumbnail):
      caption = Sanitizer.sanitize(item.title)
      switch item.kind {
      case .folder(let count):
        // A folder with a cover (a place, an album) shows it, its count
        // on the border above.
        if item.thumbnail != nil, !thumbnail.isOff {
          drawThumbnail(thumbnail, of: item, in: area, theme: theme, into: &screen)
        } else {
          drawFolderGlyph(in: area, count: count, theme: theme, into: &screen)
        }
        caption += "/"
        captionStyle = theme.folder
      case .photo where item.isMissing:
        centered(["missing"], in: area, style: theme.error, into: &screen)
        captionStyle = theme.muted
      case .photo:
        drawThumbnail(thumbnail, of: item, in: area, theme: theme, into: &screen)
      }
    }
    if selected { caption = "✓ " + caption }
    if case .item(let item, _) = content, item.culling.isRejected, !focused { captionStyle = theme.muted }
    if focused { captionStyle = theme.focusCaption }
    let captionY = y + thumbHeight + 1
    if focused { screen.fill(x: x + 1, y: captionY, width: innerWidth, height: 1, style: captionStyle) }
    screen.put(DisplayWidth.truncate(caption, to: innerWidth), x: x + 1, y: captionY, style: captionStyle)
  }

  /// Stars (or the reject) and the colour label on the bottom border,
  /// where pixels never reach: "★★★" on the left, a coloured ● on the right.
  private static func drawCulling(
    _ culling: Culling, x: Int, y: Int, width: Int, theme: Theme, into screen: inout Screen
  ) {
    // The label's mark takes the last cell and a gap; the stars what is
    // left (a narrow tile says "★5" rather than lose stars).
    let room = max(0, width - (culling.label == nil ? 0 : 2))
    if culling.isRejected {
      screen.put(DisplayWidth.truncate("✗ rejected", to: room), x: x + 1, y: y, style: theme.rejected)
    } else if culling.stars > 0 {
      let stars = culling.starText.count <= room ? culling.starText : "★\(culling.stars)"
      if stars.count <= room { screen.put(stars, x: x + 1, y: y, style: theme.stars) }
    }
    if let label = culling.label, width >= 1 {
      screen.put(theme.labelMark(label), x: x + width, y: y, style: theme.label(label))
    }
  }

  private static func drawThumbnail(
    _ thumbnail: Picture, of item: PhotoItem, in area: (x: Int, y: Int, width: Int, height: Int), theme: Theme,
    into screen: inout Screen
  ) {
    switch thumbnail {
    case .pending:
      screen.fill(x: area.x, y: area.y, width: area.width, height: area.height, with: "░", style: theme.placeholder)
    case .off:
      // Captions only: the file's kind, small and quiet.
      let name = item.title
      let dot = name.lastIndex(of: UInt8(ascii: "."))
      let kind = dot.map { Sanitizer.sanitize(Array(name[(name.index(after: $0))...])).uppercased() } ?? "photo"
      centered([kind], in: area, style: theme.muted, into: &screen)
    case .failed(let message):
      centered(["✗"] + wrap(message, width: area.width), in: area, style: theme.error, into: &screen)
    case .ready(let thumbnail):
      screen.draw(thumbnail, centredIn: area)
    }
  }

  private static func centered(
    _ lines: [String], in area: (x: Int, y: Int, width: Int, height: Int), style: Style,
    into screen: inout Screen
  ) {
    let shown = Array(lines.prefix(area.height))
    let top = area.y + (area.height - shown.count) / 2
    for (offset, line) in shown.enumerated() {
      let text = DisplayWidth.truncate(line, to: area.width)
      let left = area.x + (area.width - DisplayWidth.of(text)) / 2
      screen.put(text, x: left, y: top + offset, style: style)
    }
  }

  private static func wrap(_ text: String, width: Int) -> [String] {
    if DisplayWidth.of(text) <= width { return [text] }
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      let candidate = current.isEmpty ? String(word) : current + " " + word
      if DisplayWidth.of(candidate) > width && !current.isEmpty {
        lines.append(current)
        current = String(word)
      } else {
        current = candidate
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  private static func drawFolderGlyph(
    in area: (x: Int, y: Int, width: Int, height: Int), count: Int?, theme: Theme, into screen: inout Screen
  ) {
    var lines = area.width >= 8 && area.height >= 4 ? ["╭──╮    ", "│  ╰───╮", "│      │", "╰──────╯"] : ["[dir]"]
    if let count { lines.append("\(count) items") }
    centered(lines, in: area, style: theme.folder, into: &screen)
  }
}
