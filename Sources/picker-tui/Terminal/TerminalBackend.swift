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
  /// Descriptors the event loop polls: input, and signal wake-ups.
  var pollDescriptors: [Int32] { get }
  /// Everything the terminal has buffered; never blocks.
  func readInput() -> [TerminalInput]
  /// Milliseconds the loop may wait before calling `readInput` again even
  /// if nothing arrives (an ESC waiting to be told from a sequence), or -1.
  var inputTimeout: Int32 { get }
  func draw(_ screen: Screen)
  /// Restores the terminal; safe to call twice.
  func close()
}

/// A terminal with no screen and no keys, for benchmarks of the real loop.
final class HeadlessTerminal: TerminalBackend {
  let size: TerminalSize
  var pollDescriptors: [Int32] { [] }

  init(size: TerminalSize) { self.size = size }

  func readInput() -> [TerminalInput] { [] }
  var inputTimeout: Int32 { -1 }
  func draw(_ screen: Screen) {}
  func close() {}
}
