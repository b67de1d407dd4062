/// How many picture bytes may be on their way to the terminal unanswered.
///
/// The tty takes tens of kilobytes without waiting, and over ssh the server
/// and the network take megabytes more: text written after them waits until
/// the terminal has read them all. So the queue asks the terminal a question
/// after each batch (DA1, which every terminal we draw on answers) and sends
/// more only as the answers come back. The answers also tell how fast the
/// terminal reads, and, for a question asked with little else on the way,
/// how long an answer takes by itself (a remote link's round trip); the
/// window is what the terminal reads in `target` seconds plus that round
/// trip, so a key's frame waits behind about `target` of pictures.
public struct GraphicsFlowControl {
  /// Primary device attributes: asked after each batch.
  public static let query: [UInt8] = Array("\u{1B}[c".utf8)

  /// Seconds of reading a key's frame may wait behind.
  public var target = 0.005
  public static let minimumWindow = 4 << 10
  public static let maximumWindow = 8 << 20
  /// An answer not back after this long is taken as given (a terminal busy
  /// decoding a large picture, or one that stopped answering).
  public static let answerTimeout = 1.0
  /// This many timeouts in a row, and the terminal is taken not to answer:
  /// flow control ends.
  static let timeoutsToGiveUp = 3

  /// Bytes the terminal may have unread.
  public private(set) var window = 32 << 10
  /// Bytes written since start, and the part answered for.
  public private(set) var written = 0
  public private(set) var answered = 0
  public private(set) var isEnabled = true

  /// Questions on their way: bytes written before each, when it was asked,
  /// when its batch began.
  private var asked: [(written: Int, at: Double, batchStart: Double, batchBytes: Int, alone: Bool)] = []
  private var batchStart: Double?
  /// The span of answers being measured: when it began, bytes answered.
  private var spanStart: (at: Double, bytes: Int)?
  private var lastSpanEnd: Double?
  static let span = 0.02
  private var quickestAnswer = Double.infinity
  /// Recent reading speeds (bytes/s) with when they were seen: the window
  /// follows the fastest of the last second, so a batch the picker had
  /// little to send does not make the terminal look slow.
  private var speeds: [(speed: Double, at: Double)] = []
  private var timeoutsInARow = 0

  public init() {}

  /// Questions asked and not yet answered.
  public var hasQuestionsOut: Bool { !asked.isEmpty }

  /// Bytes that may be written now.
  public var room: Int { isEnabled ? max(0, window - (written - answered)) : .max }

  /// Bytes written (at `now`).
  public mutating func wrote(_ count: Int, now: Double) {
    guard count > 0 else { return }
    if batchStart == nil { batchStart = now }
    written += count
  }

  /// Whether the batch written since the last question is worth one now;
  /// `idle`: nothing more waits to be sent.
  public func wantsQuestion(idle: Bool) -> Bool {
    guard isEnabled else { return false }
    let batch = written - (asked.last?.written ?? answered)
    return batch > 0 && (idle || batch >= window / 2)
  }

  /// The question went out (its bytes not counted as picture bytes).
  public mutating func asked(now: Double) {
    let previous = asked.last?.written ?? answered
    // Little on the way before it: its answer time is the link's own.
    let alone = written - answered <= Self.minimumWindow
    asked.append((written, now, batchStart ?? now, written - previous, alone))
    batchStart = nil
  }

  /// The terminal answered the oldest question.
  public mutating func answer(now: Double) {
    guard !asked.isEmpty else { return }
    let question = asked.removeFirst()
    timeoutsInARow = 0
    answered = max(answered, question.written)
    if question.alone { quickestAnswer = min(quickestAnswer, now - question.at) }
    // Reading speed over spans of at least `span`: a terminal reads in
    // bursts, and two answers read together would look infinitely fast.
    // A span starts when its first batch was written or when the span
    // before it ended, whichever came later.
    if spanStart == nil { spanStart = (max(question.batchStart, lastSpanEnd ?? question.batchStart), 0) }
    spanStart!.bytes += question.batchBytes
    if now - spanStart!.at >= Self.span {
      speeds.append((Double(spanStart!.bytes) / (now - spanStart!.at), now))
      spanStart = nil
      lastSpanEnd = now
    }
    speeds.removeAll { now - $0.at > 1 }
    guard let fastest = speeds.map(\.speed).max() else { return }
    let wanted = fastest * (target + (quickestAnswer.isFinite ? quickestAnswer : 0))
    window = min(Self.maximumWindow, max(Self.minimumWindow, Int(wanted)))
  }

  /// Questions unanswered past the timeout are taken as answered; after a
  /// few in a row, the terminal is taken not to answer at all.
  public mutating func checkTimeouts(now: Double) {
    guard isEnabled, let oldest = asked.first, now - oldest.at > Self.answerTimeout else { return }
    asked.removeFirst()
    answered = max(answered, oldest.written)
    timeoutsInARow += 1
    if timeoutsInARow >= Self.timeoutsToGiveUp {
      isEnabled = false
      asked.removeAll()
    }
  }

  /// Seconds until the oldest question times out, or nil.
  public func timeoutLeft(now: Double) -> Double? {
    guard isEnabled, let oldest = asked.first else { return nil }
    return max(0, Self.answerTimeout - (now - oldest.at))
  }
}
