import Dispatch
import PickerCore

/// Bytes from a terminal as the UI's events: keys, and mouse reports told
/// into clicks, double clicks and drags; the terminal's replies are
/// counted here and go no further. A lone ESC (or half a sequence)
/// waits for its rest until a delay has passed. One copy serves the real
/// terminal and the recording one, so tests type the same bytes a user's
/// terminal sends.
package struct TerminalInputReader {
  private var decoder: InputDecoder
  private var clicks = ClickTracker()
  /// When the decoder began waiting for the rest of a sequence.
  private var waitingSince: Double?
  /// How long a lone ESC waits for the rest of a sequence before it is the
  /// Esc key; replies cut in two by a slow link get longer.
  private let escapeDelay: Double
  static let replyDelay = 0.5
  /// DA1 answers read so far: the output queue's flow control asks DA1
  /// after each batch of picture bytes.
  package private(set) var attributeReplies = 0

  /// `decoder`: one that may hold the start of a sequence (bytes read
  /// before the screen started).
  package init(escapeDelay: Double = 0.04, decoder: InputDecoder = InputDecoder()) {
    self.escapeDelay = escapeDelay
    self.decoder = decoder
    if decoder.waiting != .none { waitingSince = MonotonicClock.now }
  }

  /// The input in these bytes (none: only the wait is checked).
  package mutating func read(_ bytes: [UInt8]) -> [AppEvent] {
    var events: [TerminalInputEvent] = []
    if !bytes.isEmpty {
      events = decoder.decode(bytes)
      waitingSince = MonotonicClock.now
    }
    return inputs(from: events + timedOut())
  }

  /// What the decoder read (here, or before the screen started) as the
  /// UI's events.
  package mutating func inputs(from events: [TerminalInputEvent]) -> [AppEvent] {
    var inputs: [AppEvent] = []
    for event in events {
      switch event {
      case .key(let key): inputs.append(.key(key))
      case .mouse(let report):
        if let click = clicks.event(for: report, at: MonotonicClock.now) { inputs.append(.mouse(click)) }
      case .reply(.primaryAttributes): attributeReplies += 1
      case .reply: break  // late answers to the start-up queries
      }
    }
    return inputs
  }

  /// What a sequence left unfinished past its delay turns into (ESC alone
  /// is the Esc key).
  private mutating func timedOut() -> [TerminalInputEvent] {
    var events: [TerminalInputEvent] = []
    if decoder.waiting != .none, let since = waitingSince, MonotonicClock.now - since >= delay(for: decoder.waiting) {
      events = decoder.timeOut()
    }
    if decoder.waiting == .none { waitingSince = nil }
    return events
  }

  /// Milliseconds until an unfinished sequence must be decided, or -1.
  package var timeout: Int32 {
    guard decoder.waiting != .none, let since = waitingSince else { return -1 }
    let left = delay(for: decoder.waiting) - (MonotonicClock.now - since)
    return Int32(max(0, (left * 1000).rounded(.up)))
  }

  private func delay(for wait: InputDecoder.Wait) -> Double {
    wait == .replyDelay ? Self.replyDelay : escapeDelay
  }

}
