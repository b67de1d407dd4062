/// kitty images inside tmux: each picture is sent through tmux's
/// passthrough with a virtual placement, and shown by Unicode placeholder
/// cells (U+10EEEE, a diacritic for the row and one for the column, the
/// image id as the foreground colour). ncurses draws those cells like any
/// text, so tmux keeps them in place on scroll, redraw and pane switches.
public final class KittyPlaceholderWriter: GraphicsWriter {
  public init() {}

  /// Ids are palette colours (`38;5;N`): tmux passes 256-colour
  /// foregrounds on unchanged, 24-bit ones only to terminals it trusts.
  private var kept = LRUIDs(first: 1, last: 255)
  private var pending: [GraphicsUnit] = []

  public func prepare(_ screen: inout Screen, fullRedraw: Bool) -> [Int] {
    if fullRedraw {
      for id in kept.allIDs { pending.append(Self.required(KittyEncoding.delete(id: id))) }
      kept.removeAll()
    }
    var evicted: [UInt32] = []
    for placement in screen.images {
      let (id, isNew) = kept.id(for: placement.image.id, evicted: &evicted)
      if isNew {
        // Inside tmux's passthrough a load cut short cannot be closed
        // safely: a picture, once begun, goes whole.
        pending.append(
          GraphicsUnit(
            bytes: GraphicsDetection.tmuxPassthrough(
              KittyEncoding.transmit(placement.image, id: id, virtualPlacement: true)),
            tag: .transmit(id)))
      }
      Self.drawPlaceholders(of: placement, id: id, into: &screen)
    }
    pending.insert(contentsOf: evicted.map { Self.required(KittyEncoding.delete(id: $0)) }, at: 0)
    screen.images.removeAll()
    return []
  }

  public func finishUnits(_ screen: Screen, changed: ChangedCells, fullRedraw: Bool) -> [GraphicsUnit] {
    defer { pending.removeAll() }
    return pending
  }

  public func undelivered(_ tags: [GraphicsUnitTag]) {
    for case .transmit(let id) in tags { kept.forget(id: id) }
  }

  private static func required(_ bytes: [UInt8]) -> GraphicsUnit {
    GraphicsUnit(bytes: GraphicsDetection.tmuxPassthrough(bytes))
  }

  public func clear() -> [UInt8] {
    let out = cleanup
    kept.removeAll()
    return out
  }

  public var cleanup: [UInt8] {
    let out = kept.allIDs.sorted().flatMap { KittyEncoding.delete(id: $0) }
    return out.isEmpty ? [] : GraphicsDetection.tmuxPassthrough(out)
  }

  static func drawPlaceholders(of placement: ImagePlacement, id: UInt32, into screen: inout Screen) {
    let style = Style(foreground: .palette(UInt8(id)))
    let rows = min(placement.rows, KittyPlaceholders.diacritics.count)
    let columns = min(placement.columns, KittyPlaceholders.diacritics.count)
    for row in 0..<rows {
      for column in 0..<columns {
        let x = placement.x + column
        let y = placement.y + row
        guard x >= 0, y >= 0, x < screen.width, y < screen.height else { continue }
        screen[x, y] = ScreenCell(text: KittyPlaceholders.cell(row: row, column: column), style: style)
      }
    }
  }
}
