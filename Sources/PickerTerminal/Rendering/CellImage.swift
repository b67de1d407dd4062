import CImaging

/// One terminal cell of a thumbnail: a symbol and its two colours, as the
/// colour depth it was rendered for gives them (see `CellImage.Colors`).
public struct CellGlyph: Hashable, Sendable {
  public var scalar: UInt32
  /// -1 is the terminal's default colour.
  public var foreground: Int32
  public var background: Int32
}

/// A thumbnail as terminal cells, compact enough to cache thousands.
public struct CellImage: Hashable, Sendable {
  /// How the colour numbers of the glyphs are meant.
  public enum Colors: Hashable, Sendable {
    case rgb, palette, monochrome
  }

  public var columns: Int
  public var rows: Int
  public var colors: Colors
  /// Row by row, columns * rows of them.
  public var glyphs: [CellGlyph]

  public init(columns: Int, rows: Int, colors: Colors, glyphs: [CellGlyph]) {
    precondition(glyphs.count == columns * rows)
    self.columns = columns
    self.rows = rows
    self.colors = colors
    self.glyphs = glyphs
  }

  /// The bytes this takes in memory, for the cache's budget.
  public var byteCost: Int { MemoryLayout<CellGlyph>.stride * glyphs.count + 64 }

  public subscript(column: Int, row: Int) -> CellGlyph { glyphs[row * columns + column] }

  /// The colour a glyph's number stands for.
  public func color(_ value: Int32) -> TermColor {
    guard value >= 0 else { return .default }
    switch colors {
    case .rgb: return .rgb(UInt32(value) & 0xFF_FFFF)
    case .palette: return .palette(UInt8(clamping: value))
    case .monochrome: return .default
    }
  }
}
