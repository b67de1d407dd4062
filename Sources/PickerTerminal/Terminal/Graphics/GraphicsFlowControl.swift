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
///
/// Answers carry no number: each is taken for the oldest question still
/// waiting, so a question given up on stays in line (expired) until its
/// late answer comes, and never takes a newer one's.
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
  /// Answers are measured over spans of at least this long: a terminal
  /// reads in bursts, and two answers read together would look infinitely
  /// fast.
  static let span = 0.02

  /// Bytes the terminal may have unread.
  public private(set) var window = 32 << 10
  /// Bytes written since start, and the part answered for.
  public private(set) var written = 0
  public private(set) var answered = 0
  public private(set) var isEnabled = true

  private struct Question {
    /// Bytes written before it, when it was asked, when its batch began.
    var written: Int
    var at: Double
    var batchStart: Double
    var batchBytes: Int
    /// Little was on its way before it: its answer time is the link's own.
    var alone: Bool
    /// Given up on: its bytes count as read, its answer is still awaited.
    var expired = false
    /// Not ours: the start-up probe's, which may never come.
    var probe = false
  }

  private var asked: [Question] = []
  private var batchStart: Double?
  /// The span of answers being measured: when it began, bytes answered.
  private var spanStart: (at: Double, bytes: Int)?
  private var lastSpanEnd: Double?
  private var lastAnswer: Double?
  private var quickestAnswer = Double.infinity
  /// Recent reading speeds (bytes/s) with when they were seen: the window
  /// follows the fastest of the last second, so a batch the picker had
  /// little to send does not make the terminal look slow.
  private var speeds: [(speed: Double, at: Double)] = []
  private var speed: Double?
  private var timeoutsInARow = 0

  public init() {}

  /// Questions asked, not answered and not given up on.
  public var hasQuestionsOut: Bool { asked.contains { !$0.expired } }
  /// Answers to our questions still to come, late ones included (none
  /// once the terminal is taken not to answer).
  public var answersAwaited: Int { isEnabled ? asked.filter { !$0.probe }.count : 0 }

  /// Bytes that may be written now.
  public var room: Int { isEnabled ? max(0, window - (written - answered)) : .max }

  /// Room by the reading speed alone, for the middle of a picture that no
  /// question can go into: what the terminal has likely read since the
  /// last answer counts as read.
  public func pacedRoom(now: Double) -> Int {
    // No speed known yet: nothing to pace by, the sequence goes on.
    guard isEnabled, let speed, let lastAnswer else { return .max }
    let read = Int(speed * max(0, now - lastAnswer))
    return max(0, window - (written - answered - read))
  }

  /// Seconds until `pacedRoom` opens, or nil when it is open or unknown.
  public func paceWait(now: Double) -> Double? {
    guard isEnabled, let speed, speed > 0, pacedRoom(now: now) == 0, let lastAnswer else { return nil }
    let missing = Double(written - answered - window + 1)
    return max(0.001, lastAnswer + missing / speed - now)
  }

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
    let alone = written - answered <= Self.minimumWindow
    asked.append(
      Question(written: written, at: now, batchStart: batchStart ?? now, batchBytes: written - previous, alone: alone))
    batchStart = nil
  }

  /// A DA1 answer may come that no question of ours asked for (the start-up
  /// probe's, after its deadline): it is awaited like a late one.
  public mutating func expectLateAnswer(now: Double) {
    asked.insert(
      Question(written: answered, at: now, batchStart: now, batchBytes: 0, alone: false, expired: true, probe: true),
      at: 0)
  }

  /// The terminal answered the oldest question.
  public mutating func answer(now: Double) {
    guard !asked.isEmpty else { return }
    let question = asked.removeFirst()
    // Any answer, late or not, says the terminal answers.
    timeoutsInARow = 0
    guard !question.expired else { return }
    answered = max(answered, question.written)
    lastAnswer = now
    if question.alone { quickestAnswer = min(quickestAnswer, now - question.at) }
    if spanStart == nil { spanStart = (max(question.batchStart, lastSpanEnd ?? question.batchStart), 0) }
    spanStart!.bytes += question.batchBytes
    if now - spanStart!.at >= Self.span {
      speeds.append((Double(spanStart!.bytes) / (now - spanStart!.at), now))
      spanStart = nil
      lastSpanEnd = now
    }
    speeds.removeAll { now - $0.at > 1 }
    guard let fastest = speeds.map(\.speed).max() else { return }
    speed = fastest
    let wanted = fastest * (target + (quickestAnswer.isFinite ? quickestAnswer : 0))
    window = min(Self.maximumWindow, max(Self.minimumWindow, Int(wanted)))
  }

  /// Questions unanswered past the timeout are taken as answered (and
  /// their answers still awaited); after a few in a row, the terminal is
  /// taken not to answer at all.
  public mutating func checkTimeouts(now: Double) {
    while isEnabled, let index = asked.firstIndex(where: { !$0.expired }),
      now - asked[index].at > Self.answerTimeout
    {
      asked[index].expired = true
      answered = max(answered, asked[index].written)
      timeoutsInARow += 1
      if timeoutsInARow >= Self.timeoutsToGiveUp { isEnabled = false }
    }
  }

  /// The picker leaves the screen (Ctrl-Z): the questions still out are
  /// taken as answered, their answers awaited as late ones, and not counted
  /// as timeouts.
  public mutating func stopWaiting() {
    for index in asked.indices where !asked[index].expired {
      asked[index].expired = true
      answered = max(answered, asked[index].written)
    }
  }

  /// Seconds until the oldest question is given up on, or nil.
  public func timeoutLeft(now: Double) -> Double? {
    guard isEnabled, let oldest = asked.first(where: { !$0.expired }) else { return nil }
    return max(0, Self.answerTimeout - (now - oldest.at))
  }
}
