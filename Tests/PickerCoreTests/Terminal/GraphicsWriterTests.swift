import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

private func image(_ graphics: GraphicsProtocol = .kitty, columns: Int = 2, rows: Int = 2) -> PixelThumbnail {
  PixelThumbnail(
    graphics: graphics, columns: columns, rows: rows, pixelSize: PixelSize(width: columns * 8, height: rows * 16),
    payload: Array("PIXELS".utf8))
}

private func screen(_ placements: [ImagePlacement], width: Int = 20, height: Int = 10) -> Screen {
  var screen = Screen(width: width, height: height)
  screen.images = placements
  return screen
}

private func frame(
  _ writer: GraphicsWriter, _ placements: [ImagePlacement], full: Bool = false, changed: [(Int, Int)] = []
) -> String {
  var shown = screen(placements)
  let lines = writer.prepare(&shown, fullRedraw: full)
  var cells = ChangedCells(width: shown.width, height: shown.height)
  for (x, y) in changed { cells.mark(x: x, y: y) }
  for line in lines { for x in 0..<shown.width { cells.mark(x: x, y: line) } }
  return String(decoding: writer.finish(shown, changed: cells, fullRedraw: full), as: UTF8.self)
}

private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

@Suite struct KittyWriterTests {
  @Test func eachPictureIsSentOnceThenOnlyPlacedMovedOrRemoved() {
    let writer = KittyWriter()
    let a = image()
    let b = image()
    let first = frame(writer, [ImagePlacement(x: 1, y: 1, image: a), ImagePlacement(x: 5, y: 1, image: b)])
    #expect(count("a=t,", in: first) == 2 && count("a=p,", in: first) == 2)
    // Data needs no cursor; each placement moves it and puts it back.
    #expect(first.contains("\u{1B}7\u{1B}[2;2H") && first.contains("\u{1B}7\u{1B}[2;6H"))
    #expect(count("\u{1B}7", in: first) == 2 && count("\u{1B}8", in: first) == 2 && first.hasSuffix("\u{1B}8"))
    // The same frame again: nothing to send.
    #expect(frame(writer, [ImagePlacement(x: 1, y: 1, image: a), ImagePlacement(x: 5, y: 1, image: b)]).isEmpty)
    // a moves, b leaves: a is placed again (no data), b's placement removed.
    let moved = frame(writer, [ImagePlacement(x: 1, y: 4, image: a)])
    #expect(count("a=t,", in: moved) == 0 && count("a=p,", in: moved) == 1 && count("a=d,d=i,", in: moved) == 1)
    // b comes back (a page seen before): placed, not sent again.
    let back = frame(writer, [ImagePlacement(x: 5, y: 1, image: b)])
    #expect(count("a=t,", in: back) == 0 && count("a=p,", in: back) == 1)
  }

  @Test func picturesPastTheByteBudgetAreFreedOldestFirstButNeverOnScreen() {
    let writer = KittyWriter()
    // 64 MB each, decoded: the budget holds two.
    func big() -> PixelThumbnail {
      PixelThumbnail(
        graphics: .kitty, columns: 2, rows: 2, pixelSize: PixelSize(width: 4000, height: 4000), payload: [])
    }
    let (a, b, c) = (big(), big(), big())
    _ = frame(writer, [ImagePlacement(x: 0, y: 0, image: a)])
    _ = frame(writer, [ImagePlacement(x: 0, y: 0, image: b)])
    let third = frame(writer, [ImagePlacement(x: 0, y: 0, image: c)])
    #expect(count("a=d,d=I,", in: third) == 1, "a, the oldest, is freed")
    let back = frame(writer, [ImagePlacement(x: 0, y: 0, image: a)])
    #expect(count("a=t,", in: back) == 1, "and sent again when it comes back")
  }

  @Test func aFullRedrawSendsAgainAndExitDeletesOnlyOurIDs() {
    let writer = KittyWriter()
    let a = image()
    _ = frame(writer, [ImagePlacement(x: 0, y: 0, image: a)])
    let again = frame(writer, [ImagePlacement(x: 0, y: 0, image: a)], full: true)
    #expect(count("a=d,d=I,", in: again) == 1 && count("a=t,", in: again) == 1)
    let cleared = String(decoding: writer.clear(), as: UTF8.self)
    #expect(count("a=d,d=I,i=", in: cleared) == 1 && !cleared.contains("d=A") && !cleared.contains("d=a"))
  }
}

@Suite struct InlineImageWriterTests {
  @Test func picturesAreSentAgainOnlyWhenTextTouchedThem() {
    let writer = InlineImageWriter()
    let a = image(.sixel)
    let placement = ImagePlacement(x: 2, y: 1, image: a)
    #expect(frame(writer, [placement]) == "\u{1B}7\u{1B}[2;3HPIXELS\u{1B}8")
    #expect(frame(writer, [placement]).isEmpty)
    #expect(frame(writer, [placement], changed: [(10, 1)]).isEmpty, "text beside it")
    #expect(frame(writer, [placement], changed: [(3, 2)]).contains("PIXELS"), "text over it")
    #expect(frame(writer, [placement], full: true).contains("PIXELS"))
  }

  @Test func aPictureThatLeavesHasItsLinesRepainted() {
    let writer = InlineImageWriter()
    let a = image(.sixel)
    let b = image(.sixel)
    _ = frame(writer, [ImagePlacement(x: 0, y: 1, image: a), ImagePlacement(x: 5, y: 1, image: b)])
    var next = screen([ImagePlacement(x: 5, y: 1, image: b)])
    #expect(writer.prepare(&next, fullRedraw: false) == [1, 2])
    // b shares those lines, so it is drawn again after the repaint.
    #expect(frame(writer, [ImagePlacement(x: 5, y: 1, image: b)]).contains("PIXELS"))
  }

  @Test func neverOnTheLastLine() {
    let writer = InlineImageWriter()
    #expect(frame(writer, [ImagePlacement(x: 0, y: 8, image: image(.sixel))]).isEmpty, "rows 8-9 of 10")
    #expect(!frame(writer, [ImagePlacement(x: 0, y: 7, image: image(.sixel))]).isEmpty)
  }
}

@Suite struct KittyPlaceholderWriterTests {
  @Test func picturesBecomePlaceholderCellsAndTravelThroughTmux() {
    let writer = KittyPlaceholderWriter()
    var shown = screen([ImagePlacement(x: 3, y: 2, image: image(columns: 2, rows: 2))])
    _ = writer.prepare(&shown, fullRedraw: false)
    #expect(shown.images.isEmpty)
    let corner = shown[3, 2]
    #expect(corner.text == KittyPlaceholders.cell(row: 0, column: 0))
    #expect(corner.style.foreground == .palette(1), "image id 1 as a 256-colour foreground")
    #expect(shown[4, 3].text == KittyPlaceholders.cell(row: 1, column: 1))
    #expect(shown[5, 2] == .blank)
    let bytes = String(
      decoding: writer.finish(shown, changed: ChangedCells(width: 20, height: 10), fullRedraw: false), as: UTF8.self)
    #expect(bytes.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,i=1,"))
    #expect(bytes.contains("\u{1B}\u{1B}_Ga=p,U=1,i=1,c=2,r=2,q=2"))
    #expect(bytes.hasSuffix("\u{1B}\\"))
    // Shown again: cells only, no data.
    var again = screen(shown.images + [ImagePlacement(x: 3, y: 2, image: image())])
    _ = writer.prepare(&again, fullRedraw: false)
    #expect(
      !writer.finish(again, changed: ChangedCells(width: 20, height: 10), fullRedraw: false).isEmpty, "a new image")
  }

  @Test func idsStayWithinThePaletteAndAreReused() {
    var ids = LRUIDs(first: 1, last: 3)
    var evicted: [UInt32] = []
    #expect(ids.id(for: 10, evicted: &evicted) == (1, true))
    #expect(ids.id(for: 11, evicted: &evicted) == (2, true))
    #expect(ids.id(for: 12, evicted: &evicted) == (3, true))
    #expect(ids.id(for: 10, evicted: &evicted) == (1, false))
    #expect(ids.id(for: 13, evicted: &evicted) == (2, true), "the least recently used, 11, gives its id")
    #expect(evicted == [2])
    #expect(ids.evict(keeping: 1, protected: [2]).sorted() == [1, 3])
  }
}
