import PickerCore

/// Something that shows screens and reports keys: the ncurses terminal, or a
/// headless twin for benchmarks and tests.
package protocol TerminalBackend: AnyObject {
  var size: TerminalSize { get }
  /// Descriptors the event loop polls: input, and signal wake-ups.
  var pollDescriptors: [Int32] { get }
  /// Everything the terminal has buffered, as the UI's events (keys,
  /// clicks, resizes; its replies are taken here); never blocks.
  func readInput() -> [AppEvent]
  /// Milliseconds the loop may wait before calling `readInput` again even
  /// if nothing arrives (an ESC waiting to be told from a sequence), or -1.
  var inputTimeout: Int32 { get }
  func draw(_ screen: Screen)
  /// Restores the terminal; safe to call twice.
  func close()
  /// What the terminal can show, as found when it opened.
  var traits: TerminalTraits { get }
  /// A signal that asks the picker to end (0: none), taken once.
  func takeSignal() -> Int32
  /// While pictures are on their way: the descriptor to wait on until the
  /// terminal can take more. nil when nothing waits.
  var pendingOutputDescriptor: Int32? { get }
  /// Writes what the terminal takes now of what waits; never blocks.
  func writePending()
  /// Ctrl-Z came: leaves the screen cleanly and stops until continued
  /// (then the next input is a resize that draws everything again).
  func suspendIfAsked()
}

extension TerminalBackend {
  package var traits: TerminalTraits { TerminalTraits() }
  package func takeSignal() -> Int32 { 0 }
  package var pendingOutputDescriptor: Int32? { nil }
  package func writePending() {}
  package func suspendIfAsked() {}
}

/// What the picker's first state takes from the terminal: its colours, how
/// it draws pictures, whether its locale can show UTF-8.
package struct TerminalTraits {
  package var depth: ColorDepth = .truecolor
  package var graphics = GraphicsSupport()
  package var localeIsUTF8 = true

  package init(depth: ColorDepth = .truecolor, graphics: GraphicsSupport = GraphicsSupport(), localeIsUTF8: Bool = true)
  {
    self.depth = depth
    self.graphics = graphics
    self.localeIsUTF8 = localeIsUTF8
  }
}
