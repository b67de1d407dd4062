import PickerCore
import PickerTUI

/// A terminal with no screen and no keys, for benchmarks of the real loop.
/// With a graphics writer it makes (and counts) the bytes a pixel terminal
/// would be sent.
final class HeadlessTerminal: TerminalBackend {
  let size: TerminalSize
  var pollDescriptors: [Int32] { [] }
  private let writer: GraphicsWriter?
  private var drawn = false
  /// Graphics bytes made so far.
  private(set) var graphicsBytes = 0

  init(size: TerminalSize, writer: GraphicsWriter? = nil) {
    self.size = size
    self.writer = writer
  }

  func readInput() -> [AppEvent] { [] }
  var inputTimeout: Int32 { -1 }
  func draw(_ screen: Screen) {
    guard let writer else { return }
    var screen = screen
    let full = !drawn
    drawn = true
    _ = writer.prepare(&screen, fullRedraw: full)
    graphicsBytes +=
      writer.finish(screen, changed: ChangedCells(width: size.width, height: size.height), fullRedraw: full)
      .count
  }
  func close() {}
}
