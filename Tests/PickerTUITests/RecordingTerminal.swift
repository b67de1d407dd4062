import Dispatch
import PickerCore

@testable import PickerTUI

/// A terminal that plays a script of input and keeps every frame drawn, so
/// tests run the real event loop (batching, effects, results coming back
/// through the inbox) with no tty. It lives with the tests: the shipped
/// library has no use for it.
package final class RecordingTerminal: TerminalBackend {
  /// One step of the script.
  package enum Step {
    /// Handed to the loop in one read, so it is one batch of events.
    case input([AppEvent])
    /// Bytes as a terminal sends them (`"\u{1B}[C"` is Right), read as the
    /// real terminal reads them: a lone ESC is Esc once its delay passes.
    case bytes([UInt8])
    /// Nothing more is read until a frame shows what `condition` looks for.
    case waitFor(String, (Screen) -> Bool)
  }

  package let size: TerminalSize
  /// Every frame, in the order drawn.
  package private(set) var frames: [Screen] = []
  /// The waits that ran out (their names): the script then cancels.
  package private(set) var timedOut: [String] = []
  private var script: [Step]
  private let patience: Double
  private var waitingSince: Double?
  private var reader = TerminalInputReader()

  /// `patience`: seconds a `waitFor` may take before it fails.
  package init(size: TerminalSize, script: [Step], patience: Double = 10) {
    self.size = size
    self.script = script
    self.patience = patience
  }

  /// More steps, after those still to come.
  package func append(_ steps: [Step]) { script += steps }

  package var pollDescriptors: [Int32] { [] }

  /// Input is due at once; a wait looks again every 5 ms.
  package var inputTimeout: Int32 {
    switch script.first {
    case .input?, .bytes?: return 0
    case .waitFor?: return 5
    case nil: return reader.timeout
    }
  }

  package func readInput() -> [AppEvent] {
    while let step = script.first {
      switch step {
      case .input(let inputs):
        script.removeFirst()
        return inputs
      case .bytes(let bytes):
        script.removeFirst()
        return reader.read(bytes)
      case .waitFor(let name, let condition):
        if let frame = frames.last, condition(frame) {
          script.removeFirst()
          waitingSince = nil
          continue
        }
        let now = MonotonicClock.now
        let since = waitingSince ?? now
        waitingSince = since
        guard now - since > patience else { return reader.read([]) }
        timedOut.append(name)
        script = []
        return [.key(.ctrl("c"))]
      }
    }
    // A sequence left unfinished (ESC alone) is decided once its delay passed.
    return reader.read([])
  }

  package func draw(_ screen: Screen) { frames.append(screen) }
  package func close() {}

}
