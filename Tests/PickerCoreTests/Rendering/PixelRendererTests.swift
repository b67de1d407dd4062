import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct PixelRendererTests {
  static let cell = PixelSize(width: 8, height: 16)

  static func stripes(_ width: Int, _ height: Int) -> PixelImage {
    var rgba: [UInt8] = []
    for _ in 0..<height {
      for x in 0..<width { rgba += x % 2 == 0 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
    }
    return PixelImage(width: width, height: height, rgba: rgba)
  }

  @Test func footprintKeepsTheAspectInWholeCells() {
    let fit = PixelRenderer.footprint(width: 640, height: 480, maxColumns: 16, maxRows: 8, cellSize: Self.cell)
    #expect(fit.fitted == PixelSize(width: 128, height: 96))
    #expect(fit.columns == 16 && fit.rows == 6)
    let tall = PixelRenderer.footprint(width: 300, height: 1200, maxColumns: 16, maxRows: 8, cellSize: Self.cell)
    #expect(tall.fitted == PixelSize(width: 32, height: 128) && tall.columns == 4 && tall.rows == 8)
    // A small image is never enlarged.
    let small = PixelRenderer.footprint(width: 20, height: 10, maxColumns: 16, maxRows: 8, cellSize: Self.cell)
    #expect(small.fitted == PixelSize(width: 20, height: 10) && small.columns == 3 && small.rows == 1)
  }

  @Test func kittyPayloadIsTheFittedPixelsCentredByAnOffset() throws {
    let format = PixelFormat(graphics: .kitty, cellSize: Self.cell)
    let image = try #require(PixelRenderer.render(Self.stripes(100, 50), maxColumns: 16, maxRows: 8, format: format))
    #expect(image.columns == 13 && image.rows == 4)
    #expect(image.pixelSize == PixelSize(width: 100, height: 50), "sent as it is, not padded")
    #expect(image.offset == PixelSize(width: 2, height: 7), "centred in 104x64 pixels of cells")
    #expect(image.dataFormat == "f=24", "opaque: RGB")
    let data = try #require(Data(base64Encoded: Data(image.payload)))
    #expect(data.count == 100 * 50 * 3 && data.prefix(6) == Data([255, 255, 255, 0, 0, 0]))
    var rgba: [UInt8] = []
    for _ in 0..<(10 * 10) { rgba += [9, 9, 9, 128] }
    let translucent = try #require(
      PixelRenderer.render(PixelImage(width: 10, height: 10, rgba: rgba), maxColumns: 4, maxRows: 4, format: format))
    #expect(translucent.dataFormat == "f=32")
  }

  @Test func sixelPayloadIsOneWholeDCSString() throws {
    let format = PixelFormat(graphics: .sixel, cellSize: Self.cell, colorRegisters: 256)
    let image = try #require(PixelRenderer.render(Self.stripes(128, 96), maxColumns: 16, maxRows: 8, format: format))
    let text = String(decoding: image.payload, as: UTF8.self)
    #expect(text.hasPrefix("\u{1B}P") && text.hasSuffix("\u{1B}\\"))
    #expect(text.contains("\"1;1;128;96"), "raster attributes: the padded size")
  }

  @Test func aTerminalsLargestImageIsNotExceeded() throws {
    let format = PixelFormat(
      graphics: .sixel, cellSize: Self.cell, colorRegisters: 256, maxSize: PixelSize(width: 1000, height: 1000))
    let image = try #require(
      PixelRenderer.render(Self.stripes(2000, 1000), maxColumns: 200, maxRows: 60, format: format))
    #expect(image.columns * 8 <= 1000 && image.rows * 16 <= 1000)
    #expect(image.pixelSize.width <= 1000)
  }

  @Test func iTerm2PayloadIsAnInlineJPEG() throws {
    let format = PixelFormat(graphics: .iterm2, cellSize: Self.cell)
    let image = try #require(PixelRenderer.render(Self.stripes(128, 96), maxColumns: 16, maxRows: 8, format: format))
    let text = String(decoding: image.payload, as: UTF8.self)
    #expect(text.hasPrefix("\u{1B}]1337;File=inline=1;size="))
    #expect(text.contains(";width=16;height=6;preserveAspectRatio=1:/9j/"), "base64 of a JPEG (FF D8 FF)")
    #expect(text.hasSuffix("\u{07}"))
  }

  @Test func kittyCommandsAreChunkedAndQuiet() {
    let image = PixelThumbnail(
      graphics: .kitty, columns: 2, rows: 1, pixelSize: PixelSize(width: 16, height: 16),
      payload: Array(repeating: UInt8(ascii: "A"), count: 5000), dataFormat: "f=24")
    let text = String(decoding: KittyEncoding.transmit(image, id: 7), as: UTF8.self)
    let first = "\u{1B}_Ga=t,i=7,f=24,s=16,v=16,q=2,m=1;" + String(repeating: "A", count: 4096) + "\u{1B}\\"
    let second = "\u{1B}_Gm=0,q=2;" + String(repeating: "A", count: 904) + "\u{1B}\\"
    #expect(text == first + second, "\(text.prefix(60))")
    let virtual = String(decoding: KittyEncoding.transmit(image, id: 7, virtualPlacement: true), as: UTF8.self)
    #expect(virtual.hasSuffix("\u{1B}_Ga=p,U=1,i=7,c=2,r=1,q=2\u{1B}\\"))
    #expect(
      String(decoding: KittyEncoding.place(image, id: 7, placement: 1), as: UTF8.self)
        == "\u{1B}_Ga=p,i=7,p=1,X=0,Y=0,C=1,q=2\u{1B}\\")
    #expect(
      String(decoding: KittyEncoding.removePlacement(id: 7, placement: 1), as: UTF8.self)
        == "\u{1B}_Ga=d,d=i,i=7,p=1,q=2\u{1B}\\")
    #expect(String(decoding: KittyEncoding.delete(id: 7), as: UTF8.self) == "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
  }

  @Test func placeholderCellsNameRowAndColumn() {
    #expect(Array(KittyPlaceholders.cell(row: 0, column: 0).unicodeScalars.map(\.value)) == [0x10EEEE, 0x305, 0x305])
    #expect(Array(KittyPlaceholders.cell(row: 1, column: 2).unicodeScalars.map(\.value)) == [0x10EEEE, 0x30D, 0x30E])
    #expect(KittyPlaceholders.diacritics.count >= 100)
    #expect(Set(KittyPlaceholders.diacritics).count == KittyPlaceholders.diacritics.count)
  }
}
