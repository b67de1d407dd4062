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

/// Turns pixels into cells with libchafa, keeping the aspect ratio.
public enum CellRenderer {
  /// The cells `image` takes inside at most `maxColumns` x `maxRows`.
  public static func fit(width: Int, height: Int, maxColumns: Int, maxRows: Int) -> (columns: Int, rows: Int) {
    var columns: Int32 = 0
    var rows: Int32 = 0
    pk_cells_fit(Int32(width), Int32(height), Int32(maxColumns), Int32(maxRows), &columns, &rows)
    return (Int(columns), Int(rows))
  }

  /// The pixel box worth decoding for a tile of this many cells: block
  /// symbols show at most 2x4 dots a cell, and twice that gives colour
  /// averaging room.
  public static func pixelBox(columns: Int, rows: Int) -> PixelSize {
    PixelSize(width: columns * 4, height: rows * 8)
  }

  public static func render(_ image: PixelImage, maxColumns: Int, maxRows: Int, depth: ColorDepth) -> CellImage? {
    let (columns, rows) = fit(width: image.width, height: image.height, maxColumns: maxColumns, maxRows: maxRows)
    let mode: pk_cell_mode
    let colors: CellImage.Colors
    switch depth {
    case .truecolor: (mode, colors) = (PK_CELLS_TRUECOLOR, .rgb)
    case .palette256: (mode, colors) = (PK_CELLS_PALETTE_240, .palette)
    case .sixteen: (mode, colors) = (PK_CELLS_PALETTE_16, .palette)
    case .eight: (mode, colors) = (PK_CELLS_PALETTE_8, .palette)
    case .none: (mode, colors) = (PK_CELLS_MONOCHROME, .monochrome)
    }
    var cells = [pk_cell](repeating: pk_cell(), count: columns * rows)
    let status = cells.withUnsafeMutableBufferPointer {
      pk_render_cells(&image.raw, Int32(columns), Int32(rows), mode, $0.baseAddress)
    }
    guard status == 0 else { return nil }
    let glyphs = cells.map { CellGlyph(scalar: $0.codepoint, foreground: $0.foreground, background: $0.background) }
    return CellImage(columns: columns, rows: rows, colors: colors, glyphs: glyphs)
  }
}
