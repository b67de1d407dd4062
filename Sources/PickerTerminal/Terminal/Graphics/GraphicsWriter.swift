/// Turns the images a frame places into a graphics protocol's bytes. The
/// pure view only says which picture belongs in which cells; a writer knows
/// what the terminal already shows and sends only what changed. Each frame:
/// `prepare` before the text is drawn, `finish` after ncurses flushed it.
public protocol GraphicsWriter: AnyObject {
  /// Before the text: may rewrite cells (kitty placeholders) and names the
  /// screen lines ncurses must repaint whole (where a picture went away).
  func prepare(_ screen: inout Screen, fullRedraw: Bool) -> [Int]
  /// After the text: the units that draw this frame's pictures. `changed`
  /// says which cells ncurses wrote (text erases pixels under it).
  func finishUnits(_ screen: Screen, changed: ChangedCells, fullRedraw: Bool) -> [GraphicsUnit]
  /// Units of earlier frames that never reached the terminal whole (a
  /// newer frame came first): what they carried is not on screen.
  func undelivered(_ tags: [GraphicsUnitTag])
  /// Leaving the screen (exit, suspend): removes every picture of ours.
  func clear() -> [UInt8]
  /// What `clear` would send now, changing nothing: kept ready for the
  /// crash handler, which cannot run Swift.
  var cleanup: [UInt8] { get }
}

extension GraphicsWriter {
  /// A frame's picture bytes, as one write to a terminal that reads them all.
  public func finish(_ screen: Screen, changed: ChangedCells, fullRedraw: Bool) -> [UInt8] {
    finishUnits(screen, changed: changed, fullRedraw: fullRedraw).joinedBytes
  }
}

/// The cells a frame rewrote, and where each line's blank tail starts (a
/// terminal may clear that tail in one go, pictures and all).
public struct ChangedCells {
  let width: Int
  private var marks: [Bool]
  private var blankTail: [Int]

  public init(width: Int, height: Int) {
    self.width = width
    marks = Array(repeating: false, count: width * height)
    blankTail = Array(repeating: width, count: height)
  }

  public mutating func mark(x: Int, y: Int) { marks[y * width + x] = true }
  public mutating func setBlankTail(_ x: Int, line: Int) { blankTail[line] = x }

  /// Whether drawing the text may have erased part of this rectangle.
  public func touches(_ placement: ImagePlacement) -> Bool {
    let height = marks.count / max(1, width)
    for y in max(0, placement.y)..<min(height, placement.y + placement.rows) {
      let right = min(width, placement.x + placement.columns)
      let from = min(max(0, placement.x), blankTail[y])
      for x in from..<right where marks[y * width + x] { return true }
    }
    return false
  }
}

/// `ESC 7`, the cursor to a cell, `ESC 8`: pictures never move the cursor
/// ncurses believes in.
enum CursorBytes {
  static let save: [UInt8] = [0x1B, UInt8(ascii: "7")]
  static let restore: [UInt8] = [0x1B, UInt8(ascii: "8")]
  static func move(x: Int, y: Int) -> [UInt8] { Array("\u{1B}[\(y + 1);\(x + 1)H".utf8) }
  /// Bytes drawn at a cell, the cursor put back after.
  static func at(x: Int, y: Int, _ bytes: [UInt8]) -> [UInt8] { save + move(x: x, y: y) + bytes + restore }
}

/// The writer for what detection decided; nil draws symbols only.
public func makeGraphicsWriter(for support: GraphicsSupport) -> GraphicsWriter? {
  switch support.graphics {
  case .kitty?:
    if support.usesPlaceholders { return KittyPlaceholderWriter() }
    return KittyWriter(files: support.kittyFileFolder.map { KittyFiles(folder: $0) })
  case .sixel?, .iterm2?: return InlineImageWriter()
  case nil: return nil
  }
}
