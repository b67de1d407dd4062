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

  public func finishUnits(_ screen: Screen, changed: ChangedCells, fullRedraw: Bool) -> [GraphicsUnit] {
    let before = Set(shown)
    var units: [GraphicsUnit] = []
    var drawn: [ImagePlacement] = []
    for placement in screen.images {
      // An image that reaches the last line makes the terminal scroll.
      guard placement.y >= 0, placement.x >= 0, placement.y + placement.rows < screen.height,
        placement.x + placement.columns <= screen.width
      else { continue }
      drawn.append(placement)
      if !fullRedraw && before.contains(placement) && !changed.touches(placement) && !stale.contains(placement) {
        continue
      }
      units.append(Self.unit(drawing: placement))
    }
    shown = drawn
    stale.removeAll()
    return units
  }

  /// Pictures cut short or never sent: still counted as shown (their
  /// lines are repainted if they leave), and sent again if they stay.
  private var stale: Set<ImagePlacement> = []

  public func undelivered(_ tags: [GraphicsUnitTag]) {
    for case .inline(let placement) in tags { stale.insert(placement) }
  }

  /// A sixel picture may end early after any band (`-`): the string is
  /// closed there and shows the bands sent. An iTerm2 picture is one file
  /// and goes whole.
  static func unit(drawing placement: ImagePlacement) -> GraphicsUnit {
    let bytes = CursorBytes.at(x: placement.x, y: placement.y, placement.image.payload)
    guard placement.image.graphics == .sixel else { return GraphicsUnit(bytes: bytes, tag: .inline(placement)) }
    return GraphicsUnit(
      bytes: bytes, tag: .inline(placement), stopAfter: [UInt8(ascii: "-")],
      ending: [0x1B, UInt8(ascii: "\\")] + CursorBytes.restore)
  }

  public var cleanup: [UInt8] { [] }

  public func clear() -> [UInt8] {
    // Leaving the alternate screen takes the pictures with it.
    shown.removeAll()
    return []
  }
}
