/// A terminal colour as the view asks for it; the backend reduces it to what
/// the terminal has (see `ColorDepth`).
public enum TermColor: Hashable, Sendable {
  case `default`
  /// One of the 256 palette colours (0-15 are the classic ANSI ones).
  case palette(UInt8)
  /// 0xRRGGBB.
  case rgb(UInt32)
}

/// Text attributes of a cell.
public struct TextAttributes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let bold = TextAttributes(rawValue: 1 << 0)
  public static let dim = TextAttributes(rawValue: 1 << 1)
  public static let reverse = TextAttributes(rawValue: 1 << 2)
  public static let underline = TextAttributes(rawValue: 1 << 3)
}

/// How one cell looks.
public struct Style: Hashable, Sendable {
  public var foreground: TermColor
  public var background: TermColor
  public var attributes: TextAttributes

  public init(
    foreground: TermColor = .default, background: TermColor = .default,
    attributes: TextAttributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  public static let plain = Style()
}

/// One character cell: a base character with its combining marks. A wide
/// character fills its cell and leaves the next one empty (`text == ""`).
public struct ScreenCell: Hashable, Sendable {
  public var text: String
  public var style: Style

  public init(text: String = " ", style: Style = .plain) {
    self.text = text
    self.style = style
  }

  public static let blank = ScreenCell()
}

/// An image the terminal draws over cells: its top-left cell and the
/// encoded picture (which knows how many cells it covers).
public struct ImagePlacement: Hashable, Sendable {
  public var x: Int
  public var y: Int
  public var image: PixelThumbnail

  public init(x: Int, y: Int, image: PixelThumbnail) {
    self.x = x
    self.y = y
    self.image = image
  }

  public var columns: Int { image.columns }
  public var rows: Int { image.rows }

  /// Whether the two share a cell.
  public func overlaps(x: Int, y: Int, width: Int, height: Int) -> Bool {
    self.x < x + width && x < self.x + columns && self.y < y + height && y < self.y + rows
  }
}

/// A whole frame: what `view` returns and the backend draws.
public struct Screen: Hashable, Sendable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [ScreenCell]
  /// Pictures over the cells (pixel thumbnails); their cells are blank.
  /// The backend turns them into graphics commands after the text.
  public var images: [ImagePlacement] = []

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  public subscript(x: Int, y: Int) -> ScreenCell {
    get { cells[y * width + x] }
    set { cells[y * width + x] = newValue }
  }

  /// Writes `text` from column `x` on row `y`, clipped to `maxWidth` columns
  /// and to the screen; returns the columns used. Text must be sanitised.
  @discardableResult
  public mutating func put(_ text: String, x: Int, y: Int, style: Style, maxWidth: Int? = nil) -> Int {
    guard y >= 0, y < height else { return 0 }
    let limit = min(width, x + (maxWidth ?? width))
    var column = x
    for scalar in text.unicodeScalars {
      let w = DisplayWidth.of(scalar)
      if w == 0 {
        // A combining mark joins the character before it.
        if column > x, column - 1 < width, column - 1 >= 0 {
          let previous = cells[y * width + column - 1].text.isEmpty && column >= 2 ? column - 2 : column - 1
          cells[y * width + previous].text.unicodeScalars.append(scalar)
        }
        continue
      }
      if column + w > limit { break }
      if column >= 0 {
        set(ScreenCell(text: String(scalar), style: style), x: column, y: y)
        if w == 2 { set(ScreenCell(text: "", style: style), x: column + 1, y: y) }
      }
      column += w
    }
    return column - x
  }

  /// Fills a rectangle with one character.
  public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with text: String = " ", style: Style) {
    for row in max(0, y)..<min(height, y + h) {
      for column in max(0, x)..<min(width, x + w) {
        set(ScreenCell(text: text, style: style), x: column, y: row)
      }
    }
  }

  /// Writes one cell and blanks what is left of a wide character it cuts in
  /// half, so that no half-character ever reaches the terminal.
  private mutating func set(_ cell: ScreenCell, x: Int, y: Int) {
    let old = self[x, y]
    if old.text.isEmpty && x > 0 && !cell.text.isEmpty {
      // Overwriting the right half: the left half goes.
      self[x - 1, y] = ScreenCell(text: " ", style: self[x - 1, y].style)
    }
    if x + 1 < width && self[x + 1, y].text.isEmpty && !old.text.isEmpty {
      // Overwriting the left half: the right half goes, unless this write
      // is itself wide and about to fill it.
      self[x + 1, y] = ScreenCell(text: " ", style: self[x + 1, y].style)
    }
    self[x, y] = cell
  }

  /// The frame as plain text, one line per row, trailing blanks trimmed; for
  /// golden tests.
  public var plainText: String {
    (0..<height).map { row in
      var line = ""
      for column in 0..<width { line += self[column, row].text }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }

  /// One row as plain text (trailing blanks kept).
  public func line(_ row: Int) -> String {
    (0..<width).map { self[$0, row].text }.joined()
  }
}
