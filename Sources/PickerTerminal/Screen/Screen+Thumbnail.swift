extension Screen {
  /// Draws a thumbnail centred in an area it was made for (never larger):
  /// cells as text, a picture as a placement over blank cells.
  package mutating func draw(_ thumbnail: Thumbnail, centredIn area: (x: Int, y: Int, width: Int, height: Int)) {
    let left = area.x + max(0, (area.width - thumbnail.columns) / 2)
    let top = area.y + max(0, (area.height - thumbnail.rows) / 2)
    switch thumbnail {
    case .pixels(let image):
      guard image.columns <= area.width, image.rows <= area.height else { return }
      images.append(ImagePlacement(x: left, y: top, image: image))
    case .cells(let cells):
      for row in 0..<min(cells.rows, area.height) {
        for column in 0..<min(cells.columns, area.width) {
          let glyph = cells[column, row]
          let style = Style(foreground: cells.color(glyph.foreground), background: cells.color(glyph.background))
          self[left + column, top + row] = ScreenCell(text: Self.symbol(glyph.scalar), style: style)
        }
      }
    }
  }

  /// A one-column symbol for a glyph; anything else (which libchafa should
  /// never give with our symbol map) becomes a space.
  static func symbol(_ scalar: UInt32) -> String {
    if scalar < 0x80 { return asciiSymbols[Int(scalar)] }
    if (0x2500..<0x2900).contains(scalar) { return blockSymbols[Int(scalar - 0x2500)] }
    return checkedSymbol(scalar)
  }

  private static func checkedSymbol(_ scalar: UInt32) -> String {
    guard let unicode = Unicode.Scalar(scalar), DisplayWidth.of(unicode) == 1 else { return " " }
    return String(Character(unicode))
  }

  // Every cell of every symbol thumbnail on screen goes through `symbol`
  // each frame: the scalars libchafa uses (ASCII, box drawing, blocks,
  // shapes, braille) are looked up, their width checked once.
  private static let asciiSymbols = (0..<UInt32(0x80)).map(checkedSymbol)
  private static let blockSymbols = (UInt32(0x2500)..<0x2900).map(checkedSymbol)
}
