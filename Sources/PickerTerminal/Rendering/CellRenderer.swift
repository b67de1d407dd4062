import CImaging

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
