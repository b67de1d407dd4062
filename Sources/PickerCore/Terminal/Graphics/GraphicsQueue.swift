/// Picture bytes on their way to the terminal. The loop writes them as the
/// terminal reads (when the tty is writable, and, with flow control, as the
/// terminal answers for what it has read) instead of waiting for a slow
/// terminal to take a whole page; and a new frame drops what the terminal
/// has not begun to read of the old one, so a key is answered at once.
///
/// Text (ncurses) may only go out between two units, or at a stop of a
/// unit that may pause there: `supersede` brings the unit in progress to
/// such a point first.
public final class GraphicsQueue {
  private var units: [GraphicsUnit] = []
  /// The unit being sent is `units[head]`; `sent` of its bytes are out, and
  /// the piece begun goes to `pieceEnd` (text may go where a piece ends).
  private var head = 0
  private var sent = 0
  private var pieceEnd = 0
  /// Bytes that go before anything else: a question half written.
  private var urgent: ArraySlice<UInt8> = []
  /// nil: bytes go as fast as the tty takes them (tests, headless runs).
  public private(set) var flow: GraphicsFlowControl?

  public init(flowControl: GraphicsFlowControl? = nil) { flow = flowControl }

  public var isEmpty: Bool { head == units.count && urgent.isEmpty }

  /// Bytes still to send.
  public var pendingBytes: Int {
    urgent.count + units[head...].reduce(0) { $0 + $1.bytes.count } - sent
  }

  /// Whether a write now could send something: not when only answers from
  /// the terminal can let more go.
  public var canWrite: Bool {
    guard !isEmpty else { return false }
    guard let flow, urgent.isEmpty, sent == pieceEnd else { return true }
    return flow.room > 0 || flow.wantsQuestion(idle: false) || mustGoOn(flow)
  }

  /// In the middle of a sequence no question can go: with none on its way
  /// that would let more go, the sequence goes on regardless.
  private func mustGoOn(_ flow: GraphicsFlowControl) -> Bool {
    head < units.count && sent > 0 && !units[head].pausable && !flow.hasQuestionsOut
  }

  public func append(_ more: [GraphicsUnit]) {
    units += more.filter { !$0.bytes.isEmpty }
  }

  /// The terminal answered a question (flow control).
  public func answered(now: Double) { flow?.answer(now: now) }

  /// Seconds until an unanswered question must be given up on, or nil.
  public func timeoutLeft(now: Double) -> Double? {
    flow?.checkTimeouts(now: now)
    return flow?.timeoutLeft(now: now)
  }

  /// Offers bytes to `write` (which returns how many it took; 0 when the
  /// terminal is full, below 0 when it is gone) until it takes fewer than
  /// offered, `limit` bytes went out, flow control says wait, or nothing is
  /// left. Returns the bytes written. A terminal that is gone drops all.
  @discardableResult
  public func pump(limit: Int = .max, now: Double = 0, write: (ArraySlice<UInt8>) -> Int) -> Int {
    var total = 0
    flow?.checkTimeouts(now: now)
    while total < limit {
      if !urgent.isEmpty {
        let taken = write(urgent)
        if taken < 0 { return dropAll(total) }
        urgent = urgent.dropFirst(taken)
        if !urgent.isEmpty { break }
        continue
      }
      if head == units.count {
        if flow?.wantsQuestion(idle: true) == true { ask(now: now) } else { break }
        continue
      }
      let unit = units[head]
      if sent == pieceEnd {
        // Between two pieces: a question may go where a sequence may
        // (between units, or at a stop of one that pauses), and flow
        // control decides whether the next piece goes now.
        if sent == 0 || unit.pausable, flow?.wantsQuestion(idle: false) == true {
          ask(now: now)
          continue
        }
        if let flow, flow.room == 0, !mustGoOn(flow) { break }
        pieceEnd = unit.stop(atOrAfter: sent + 1) ?? unit.bytes.count
      }
      let end = limit - total >= pieceEnd - sent ? pieceEnd : sent + (limit - total)
      let offered = end - sent
      let taken = write(unit.bytes[sent..<end])
      if taken < 0 { return dropAll(total) }
      sent += taken
      total += taken
      flow?.wrote(taken, now: now)
      if sent == unit.bytes.count { advance() }
      if taken < offered { break }
    }
    compact()
    return total
  }

  private func ask(now: Double) {
    urgent = ArraySlice(GraphicsFlowControl.query)
    flow?.asked(now: now)
  }

  /// Before a new frame: brings the unit in progress to a point where text
  /// may go (the next stop of one that may pause, which then goes on after
  /// the text; the next stop of one that may end early, with its ending;
  /// else its end) and drops the units not begun, except those that must
  /// arrive. Returns the bytes to write at once, before anything else, and
  /// the tags of units that did not arrive whole. `pausing` false (the
  /// picker ends): nothing goes on after.
  public func supersede(pausing: Bool = true, now: Double = 0) -> (finish: [UInt8], undelivered: [GraphicsUnitTag]) {
    var finish = Array(urgent)
    urgent = []
    var undelivered: [GraphicsUnitTag] = []
    var paused: GraphicsUnit?
    if head < units.count && sent > 0 {
      let unit = units[head]
      let stop = unit.stop(atOrAfter: sent)
      if unit.pausable && pausing && unit.tag != nil {
        let to = sent == pieceEnd ? sent : (stop ?? unit.bytes.count)
        finish += unit.bytes[sent..<to]
        sent = to
        pieceEnd = to
        if to < unit.bytes.count { paused = unit } else { advance() }
      } else if unit.tag != nil, let stop, stop < unit.bytes.count {
        finish += unit.bytes[sent..<stop] + unit.ending
        if let tag = unit.tag { undelivered.append(tag) }
        advance()
      } else {
        finish += unit.bytes[sent...]
        advance()
      }
    }
    var kept: [GraphicsUnit] = paused.map { [$0] } ?? []
    for (index, unit) in units.enumerated() where index >= head + (paused == nil ? 0 : 1) {
      if let tag = unit.tag { undelivered.append(tag) } else { kept.append(unit) }
    }
    units = kept
    head = 0
    if paused == nil {
      sent = 0
      pieceEnd = 0
    }
    flow?.wrote(finish.count, now: now)
    return (finish, undelivered)
  }

  /// For when the picker ends: the unit in progress brought to an end,
  /// and what must arrive; nothing else.
  public func drain() -> [UInt8] {
    let (finish, _) = supersede(pausing: false)
    defer { _ = dropAll(0) }
    return finish + units.joinedBytes
  }

  private func advance() {
    head += 1
    sent = 0
    pieceEnd = 0
  }

  private func dropAll(_ total: Int) -> Int {
    units.removeAll()
    urgent = []
    head = 0
    sent = 0
    pieceEnd = 0
    return total
  }

  /// Sent units are let go now and then, not on every advance.
  private func compact() {
    if head == units.count {
      units.removeAll()
      head = 0
    } else if head > 64 {
      units.removeFirst(head)
      head = 0
    }
  }
}
