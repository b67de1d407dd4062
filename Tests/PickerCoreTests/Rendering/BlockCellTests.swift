import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Truecolor cells of opaque pictures: two colours split by the block
/// symbol closest to the picture (block_cells.c), in the code points
/// libchafa drew them in.
@Suite struct BlockCellTests {
  /// One cell of 8x16 pixels, each coloured by `colour(x, y)`.
  private func cell(_ colour: (Int, Int) -> (UInt8, UInt8, UInt8), alpha: UInt8 = 255) throws -> CellGlyph {
    var rgba: [UInt8] = []
    for y in 0..<16 {
      for x in 0..<8 {
        let (r, g, b) = colour(x, y)
        rgba += [r, g, b, alpha]
      }
    }
    let image = PixelImage(width: 8, height: 16, rgba: rgba)
    let cells = try #require(CellRenderer.render(image, maxColumns: 1, maxRows: 1, depth: .truecolor))
    #expect(cells.columns == 1 && cells.rows == 1)
    return cells.glyphs[0]
  }

  private let red: (UInt8, UInt8, UInt8) = (220, 20, 30)
  private let blue: (UInt8, UInt8, UInt8) = (10, 40, 200)
  private func packed(_ c: (UInt8, UInt8, UInt8)) -> Int32 { Int32(c.0) << 16 | Int32(c.1) << 8 | Int32(c.2) }

  @Test func oneColourIsASpace() throws {
    let glyph = try cell { _, _ in (90, 120, 150) }
    #expect(glyph.scalar == 0x20)
    #expect(glyph.background == packed((90, 120, 150)))
  }

  @Test func aLeftHalfIsTheRightHalfBlockWithItsColoursSwapped() throws {
    let glyph = try cell { x, _ in x < 4 ? red : blue }
    #expect(glyph.scalar == 0x2590)  // ▐
    #expect(glyph.foreground == packed(blue) && glyph.background == packed(red))
  }

  @Test func theLowerQuarterIsItsEighthsBlock() throws {
    let glyph = try cell { _, y in y >= 12 ? red : blue }
    #expect(glyph.scalar == 0x2582)  // ▂
    #expect(glyph.foreground == packed(red) && glyph.background == packed(blue))
  }

  @Test func aLowerHalfIsTheUpperHalfBlockSwapped() throws {
    let glyph = try cell { _, y in y >= 8 ? red : blue }
    #expect(glyph.scalar == 0x2580)  // ▀
    #expect(glyph.foreground == packed(blue) && glyph.background == packed(red))
  }

  @Test func oneQuadrantAndTheDiagonals() throws {
    let upperRight = try cell { x, y in x >= 4 && y < 8 ? red : blue }
    #expect(upperRight.scalar == 0x259D)  // ▝
    #expect(upperRight.foreground == packed(red))
    let diagonal = try cell { x, y in (x < 4) == (y < 8) ? red : blue }
    #expect(diagonal.scalar == 0x259E)  // ▞, the upper left and lower right in its background
    #expect(diagonal.foreground == packed(blue) && diagonal.background == packed(red))
  }

  @Test func sidesAreTheirPixelsMeans() throws {
    // A soft edge: the split goes where the change is, each side its mean.
    let glyph = try cell { x, _ in x < 6 ? (UInt8(100 + x), 0, 0) : (0, 0, 200) }
    #expect(glyph.scalar == 0x258A)  // ▊, the left three quarters
    #expect(glyph.foreground == packed((102, 0, 0)) || glyph.foreground == packed((103, 0, 0)))
    #expect(glyph.background == packed((0, 0, 200)))
  }

  @Test func transparencyIsLeftToLibchafa() throws {
    // The terminal's own background shows through (libchafa's default colour).
    let glyph = try cell({ _, _ in (0, 0, 0) }, alpha: 0)
    #expect(glyph.background == -1 || glyph.foreground == -1)
  }

  @Test func moreCellsThanPixelsStillShowThePicture() throws {
    let image = PixelImage(width: 1, height: 1, rgba: [200, 100, 50, 255])
    let cells = try #require(CellRenderer.render(image, maxColumns: 4, maxRows: 4, depth: .truecolor))
    #expect(cells.glyphs.allSatisfy { $0.background == packed((200, 100, 50)) })
  }
}
