import PickerCore

/// What the terminal reports between frames.
enum TerminalInput: Equatable {
  case key(Key)
  case mouse(MouseEvent)
  case resize(TerminalSize)
}

/// Something that shows screens and reports keys: the ncurses terminal, or a
/// headless twin for benchmarks and tests.
protocol TerminalBackend: AnyObject {
  var size: TerminalSize { get }
  /// The descriptor the event loop polls for input, or -1 for none.
  var inputDescriptor: Int32 { get }
  /// Everything the terminal has buffered; never blocks.
  func readInput() -> [TerminalInput]
  func draw(_ screen: Screen)
  /// Restores the terminal; safe to call twice.
  func close()
}

/// A terminal with no screen: keeps the frames it was given.
final class HeadlessTerminal: TerminalBackend {
  let size: TerminalSize
  var inputDescriptor: Int32 { -1 }
  private(set) var frames: [Screen] = []
  private let keepFrames: Bool

  init(size: TerminalSize, keepFrames: Bool = false) {
    self.size = size
    self.keepFrames = keepFrames
  }

  func readInput() -> [TerminalInput] { [] }
  func draw(_ screen: Screen) {
    if keepFrames { frames.append(screen) }
  }
  func close() {}
}
