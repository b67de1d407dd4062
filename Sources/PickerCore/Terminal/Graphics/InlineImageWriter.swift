/// Sixel and iTerm2 pictures: pixels written into the cells themselves, so
/// text drawn later erases them and they stay until something is drawn
/// over them. Each frame re-sends the pictures whose cells the text touched
/// (or that are new or moved), and has ncurses repaint the lines of
/// pictures that went away.
public final class InlineImageWriter: GraphicsWriter {
  public init() {}

  private var shown: [ImagePlacement] = []

  public func prepare(_ screen: inout Screen, fullRedraw: Bool) -> [Int] {
    guard !fullRedraw else { return [] }
    let now = Set(screen.images)
    var lines = Set<Int>()
    for old in shown where !now.contains(old) {
      for line in old.y..<(old.y + old.rows) { lines.insert(line) }
    }
    return lines.sorted()
  }

  public func finish(_ screen: Screen, changed: ChangedCells, fullRedraw: Bool) -> [UInt8] {
    let before = Set(shown)
    var out: [UInt8] = []
    var drawn: [ImagePlacement] = []
    for placement in screen.images {
      // An image that reaches the last line makes the terminal scroll.
      guard placement.y >= 0, placement.x >= 0, placement.y + placement.rows < screen.height,
        placement.x + placement.columns <= screen.width
      else { continue }
      drawn.append(placement)
      if !fullRedraw && before.contains(placement) && !changed.touches(placement) { continue }
      out += CursorBytes.move(x: placement.x, y: placement.y)
      out += placement.image.payload
    }
    shown = drawn
    return out.isEmpty ? [] : CursorBytes.save + out + CursorBytes.restore
  }

  public var cleanup: [UInt8] { [] }

  public func clear() -> [UInt8] {
    // Leaving the alternate screen takes the pictures with it.
    shown.removeAll()
    return []
  }
}
