import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A terminal that takes `room` bytes, then is full until given more.
private final class SlowTerminal {
  var room: Int
  var received: [UInt8] = []
  init(room: Int) { self.room = room }
  func write(_ bytes: ArraySlice<UInt8>) -> Int {
    let taken = min(room, bytes.count)
    received += bytes.prefix(taken)
    room -= taken
    return taken
  }
  var text: String { String(decoding: received, as: UTF8.self) }
}

private func sixel(_ bands: Int) -> [UInt8] {
  Array(("\u{1B}Pq" + String(repeating: "#1~~~~-", count: bands) + "\u{1B}\\").utf8)
}

private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

private func image(_ graphics: GraphicsProtocol, payload: [UInt8]) -> PixelThumbnail {
  PixelThumbnail(
    graphics: graphics, columns: 2, rows: 2, pixelSize: PixelSize(width: 16, height: 32), payload: payload)
}

@Suite struct GraphicsQueueTests {
  @Test func bytesGoOutAsTheTerminalTakesThemInOrder() {
    let queue = GraphicsQueue()
    queue.append([GraphicsUnit(bytes: Array("abc".utf8)), GraphicsUnit(bytes: Array("defg".utf8), tag: .place(1))])
    let terminal = SlowTerminal(room: 5)
    #expect(queue.pump(write: terminal.write) == 5)
    #expect(terminal.text == "abcde" && queue.pendingBytes == 2 && !queue.isEmpty)
    terminal.room = 100
    queue.pump(write: terminal.write)
    #expect(terminal.text == "abcdefg" && queue.isEmpty)
  }

  @Test func aNewFrameDropsUnitsNotBegunButKeepsThoseThatMustArrive() {
    let queue = GraphicsQueue()
    queue.append([
      GraphicsUnit(bytes: Array("one".utf8), tag: .place(1)), GraphicsUnit(bytes: Array("delete".utf8)),
      GraphicsUnit(bytes: Array("two".utf8), tag: .place(2)),
    ])
    let (ending, undelivered) = queue.supersede()
    #expect(ending.isEmpty && undelivered == [.place(1), .place(2)])
    let terminal = SlowTerminal(room: 100)
    queue.pump(write: terminal.write)
    #expect(terminal.text == "delete")
  }

  @Test func aUnitBegunEndsAtItsNextStopWithItsEnding() {
    let queue = GraphicsQueue()
    let unit = GraphicsUnit(
      bytes: Array("HEAD#1~~~~-#1~~~~-#1~~~~-TAIL".utf8), tag: .place(7), stopAfter: Array("-".utf8),
      ending: Array("END".utf8))
    queue.append([unit, GraphicsUnit(bytes: Array("next".utf8), tag: .place(8))])
    let terminal = SlowTerminal(room: 8)
    queue.pump(write: terminal.write)
    let (ending, undelivered) = queue.supersede()
    #expect(String(decoding: ending, as: UTF8.self) == "~~-END", "the band in progress is finished, then ended")
    #expect(undelivered == [.place(7), .place(8)])
    #expect(queue.isEmpty)
  }

  @Test func aUnitBegunWithNoStopLeftIsSentWholeAndCountsAsDelivered() {
    let queue = GraphicsQueue()
    queue.append([GraphicsUnit(bytes: Array("ab-cdef".utf8), tag: .place(1), stopAfter: Array("-".utf8))])
    let terminal = SlowTerminal(room: 4)
    queue.pump(write: terminal.write)
    let (ending, undelivered) = queue.supersede()
    #expect(String(decoding: ending, as: UTF8.self) == "def" && undelivered.isEmpty)
  }

  @Test func aTerminalThatIsGoneDropsEverything() {
    let queue = GraphicsQueue()
    queue.append([GraphicsUnit(bytes: Array("abc".utf8))])
    #expect(queue.pump { _ in -1 } == 0)
    #expect(queue.isEmpty)
  }

  @Test func aPumpStopsAtItsLimit() {
    let queue = GraphicsQueue()
    queue.append([GraphicsUnit(bytes: [UInt8](repeating: 65, count: 10))])
    let terminal = SlowTerminal(room: 100)
    #expect(queue.pump(limit: 4, write: terminal.write) == 4)
    #expect(queue.pendingBytes == 6)
  }

  @Test func drainFinishesThePictureInProgressAndKeepsTheDeletes() {
    let queue = GraphicsQueue()
    queue.append([
      GraphicsUnit(bytes: Array("AB-CD".utf8), tag: .place(1), stopAfter: Array("-".utf8), ending: Array("!".utf8)),
      GraphicsUnit(bytes: Array("pic".utf8), tag: .place(2)), GraphicsUnit(bytes: Array("del".utf8)),
    ])
    let terminal = SlowTerminal(room: 1)
    queue.pump(write: terminal.write)
    #expect(String(decoding: queue.drain().bytes, as: UTF8.self) == "B-!del")
    #expect(queue.isEmpty)
  }
}

/// A first frame showing one sixel picture: its screen and units.
private func firstFrame(_ writer: InlineImageWriter, _ picture: ImagePlacement) -> (Screen, [GraphicsUnit]) {
  var screen = Screen(width: 20, height: 10)
  screen.images = [picture]
  _ = writer.prepare(&screen, fullRedraw: true)
  return (screen, writer.finishUnits(screen, changed: ChangedCells(width: 20, height: 10), fullRedraw: true))
}

@Suite struct UndeliveredPictureTests {
  @Test func aSixelCutShortIsClosedAfterABandAndSentAgainNextFrame() {
    let writer = InlineImageWriter()
    let picture = ImagePlacement(x: 1, y: 1, image: image(.sixel, payload: sixel(40)))
    let (screen, units) = firstFrame(writer, picture)
    let queue = GraphicsQueue()
    queue.append(units)
    let terminal = SlowTerminal(room: 30)
    queue.pump(write: terminal.write)
    let (ending, undelivered) = queue.supersede()
    let sent = String(decoding: terminal.received + ending, as: UTF8.self)
    #expect(sent.hasSuffix("-\u{1B}\\\u{1B}8"), "closed after a whole band, the cursor put back")
    writer.undelivered(undelivered)
    // The next frame has no text over it, yet the picture goes again.
    var next = screen
    _ = writer.prepare(&next, fullRedraw: false)
    let again = writer.finishUnits(next, changed: ChangedCells(width: 20, height: 10), fullRedraw: false)
    #expect(again.count == 1 && again[0].tag == .inline(picture))
  }

  @Test func aSixelCutShortThatLeftHasItsLinesRepainted() {
    let writer = InlineImageWriter()
    let picture = ImagePlacement(x: 1, y: 3, image: image(.sixel, payload: sixel(4)))
    _ = firstFrame(writer, picture)
    writer.undelivered([.inline(picture)])
    var empty = Screen(width: 20, height: 10)
    #expect(writer.prepare(&empty, fullRedraw: false) == [3, 4])
  }

  @Test func aKittyPictureInProgressPausesBetweenChunksAndGoesOnAfterTheText() {
    let writer = KittyWriter()
    let big = image(.kitty, payload: [UInt8](repeating: UInt8(ascii: "A"), count: 10_000))
    let picture = ImagePlacement(x: 2, y: 2, image: big)
    var screen = Screen(width: 20, height: 10)
    screen.images = [picture]
    let cells = ChangedCells(width: 20, height: 10)
    let queue = GraphicsQueue()
    queue.append(writer.finishUnits(screen, changed: cells, fullRedraw: false))
    let terminal = SlowTerminal(room: 100)
    queue.pump(write: terminal.write)
    let (ending, undelivered) = queue.supersede()
    let tail = String(decoding: terminal.received + ending, as: UTF8.self)
    #expect(tail.hasSuffix("\u{1B}\\") && !tail.contains("m=0"), "the first chunk is finished, no more")
    #expect(undelivered.count == 1, "only the placement was dropped")
    writer.undelivered(undelivered)
    queue.append(writer.finishUnits(screen, changed: cells, fullRedraw: false))
    terminal.room = 100_000
    queue.pump(write: terminal.write)
    let all = String(decoding: terminal.received, as: UTF8.self)
    #expect(count("a=t,", in: all) == 1 && all.contains("m=0,q=2;") && count("a=p,", in: all) == 1)
    #expect(all.range(of: "m=0,q=2;")!.lowerBound < all.range(of: "a=p,")!.lowerBound, "the data goes on first")
  }

  @Test func aKittyPictureInProgressWhenThePickerEndsClosesTheLoadAndFreesItsID() {
    let writer = KittyWriter()
    let big = image(.kitty, payload: [UInt8](repeating: UInt8(ascii: "A"), count: 10_000))
    var screen = Screen(width: 20, height: 10)
    screen.images = [ImagePlacement(x: 2, y: 2, image: big)]
    let queue = GraphicsQueue()
    queue.append(writer.finishUnits(screen, changed: ChangedCells(width: 20, height: 10), fullRedraw: false))
    let terminal = SlowTerminal(room: 100)
    queue.pump(write: terminal.write)
    let tail = String(decoding: queue.drain().bytes, as: UTF8.self)
    #expect(tail.hasSuffix("\u{1B}_Gm=0,q=2;\u{1B}\\\u{1B}_Ga=d,d=I,i=\(0x50_0000),q=2\u{1B}\\"))
    #expect(!tail.contains("a=p,"))
  }

  @Test func aKittyPlacementDroppedIsPlacedAgainOrRemoved() {
    let writer = KittyWriter()
    let a = ImagePlacement(x: 0, y: 0, image: image(.kitty, payload: Array("PIXELS".utf8)))
    var screen = Screen(width: 20, height: 10)
    screen.images = [a]
    let cells = ChangedCells(width: 20, height: 10)
    let first = writer.finishUnits(screen, changed: cells, fullRedraw: false)
    guard case .place(let id)? = first.last?.tag else {
      Issue.record("a placement comes last")
      return
    }
    var moved = screen
    moved.images = [ImagePlacement(x: 5, y: 5, image: a.image)]
    _ = writer.finishUnits(moved, changed: cells, fullRedraw: false)
    // The move never went out: the picture may still be at (0, 0).
    writer.undelivered([.place(id)])
    let leaving = String(
      decoding: writer.finishUnits(Screen(width: 20, height: 10), changed: cells, fullRedraw: false).joinedBytes,
      as: UTF8.self)
    #expect(leaving.contains("a=d,d=i,i=\(id)"), "removed, wherever it is")
  }
}
