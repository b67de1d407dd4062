/// Where the grid and its tiles go for a terminal size and thumbnail size.
///
/// A tile is a bordered box: the thumbnail area, then the caption row.
public struct GridLayout: Hashable, Sendable {
  /// Thumbnail sizes `+` and `-` step through, in cells (about 2:1, since a
  /// cell is about twice as tall as wide).
  public static let thumbnailSizes: [(width: Int, height: Int)] = [
    (8, 4), (12, 6), (16, 8), (24, 12), (32, 16),
  ]
  public static let defaultSizeLevel = 2

  /// Rows above the grid (source bar, breadcrumb) and below it (tray, hints).
  public static let headerRows = 2
  public static let footerRows = 2

  public let thumbnailWidth: Int
  public let thumbnailHeight: Int
  public let columns: Int
  public let visibleRows: Int
  public let gridTop: Int
  public let gridHeight: Int

  public init(size: TerminalSize, sizeLevel: Int) {
    let level = min(max(0, sizeLevel), Self.thumbnailSizes.count - 1)
    var (thumbWidth, thumbHeight) = Self.thumbnailSizes[level]
    gridTop = Self.headerRows
    gridHeight = max(0, size.height - Self.headerRows - Self.footerRows)
    // Shrink the tile until one fits, so a small terminal still shows a grid.
    while thumbWidth > 4 && (thumbWidth + 2 > size.width || thumbHeight + 3 > gridHeight) {
      thumbWidth -= 2
      thumbHeight = max(1, thumbHeight - 1)
    }
    thumbnailWidth = thumbWidth
    thumbnailHeight = thumbHeight
    columns = max(1, (size.width + 1) / (thumbWidth + 3))
    visibleRows = max(1, gridHeight / (thumbHeight + 3))
  }

  public var tileWidth: Int { thumbnailWidth + 2 }
  public var tileHeight: Int { thumbnailHeight + 3 }
  public var visibleCells: Int { columns * visibleRows }

  /// The top-left corner of the tile at grid row/column (screen coordinates).
  public func origin(row: Int, column: Int, scrollRow: Int) -> (x: Int, y: Int) {
    (column * (tileWidth + 1), gridTop + (row - scrollRow) * tileHeight)
  }

  /// The grid position under a screen point, if it is on a tile.
  public func hit(x: Int, y: Int, scrollRow: Int) -> (row: Int, column: Int)? {
    guard y >= gridTop, y < gridTop + visibleRows * tileHeight, x >= 0 else { return nil }
    let column = x / (tileWidth + 1)
    guard column < columns, x % (tileWidth + 1) < tileWidth else { return nil }
    return ((y - gridTop) / tileHeight + scrollRow, column)
  }

  /// Items per page: the requested size (or two screens) rounded up to whole
  /// rows, so the last row of a page is never ragged.
  public func pageSize(requested: Int?) -> Int {
    let wanted = requested ?? max(48, visibleCells * 2)
    let rows = max(1, (wanted + columns - 1) / columns)
    return rows * columns
  }
}
