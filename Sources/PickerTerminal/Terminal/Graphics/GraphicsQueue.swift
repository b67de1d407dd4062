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
  public var flow: GraphicsFlowControl?

  public init(flowControl: GraphicsFlowControl? = nil) { flow = flowControl }

  public var isEmpty: Bool { head == units.count && urgent.isEmpty }

  /// Bytes still to send.
  public var pendingBytes: Int {
    urgent.count + units[head...].reduce(0) { $0 + $1.bytes.count } - sent
  }

  /// What the queue would do next.
  private enum Next { case urgent, ask, piece, wait, idle }

  private func next(now: Double) -> Next {
    if !urgent.isEmpty { return .urgent }
    guard let flow else { return head < units.count ? .piece : .idle }
    guard head < units.count else { return flow.wantsQuestion(idle: true) ? .ask : .idle }
    // A piece begun is finished whatever flow control says.
    if sent != pieceEnd { return .piece }
    let unit = units[head]
    // A question may go where a sequence may: between units, or at a stop
    // of one that pauses.
    let canAsk = sent == 0 || unit.pausable
    if canAsk && flow.wantsQuestion(idle: false) { return .ask }
    if flow.room > 0 { return .piece }
    // In the middle of a sequence no question can go: with none on its
    // way, it goes on at the pace the terminal was last seen reading.
    if !canAsk && !flow.hasQuestionsOut && flow.pacedRoom(now: now) > 0 { return .piece }
    return .wait
  }

  /// Whether a write now could send something: not when only answers from
  /// the terminal, or time, can let more go.
  public func canWrite(now: Double) -> Bool {
    flow?.checkTimeouts(now: now)
    switch next(now: now) {
    case .urgent, .ask, .piece: return true
    case .wait, .idle: return false
    }
  }

  public func append(_ more: [GraphicsUnit]) {
    units += more.filter { !$0.bytes.isEmpty }
  }

  /// The terminal answered a question (flow control).
  public func answered(now: Double) { flow?.answer(now: now) }

  /// Seconds until the queue may send more by itself (a question given up
  /// on, a sequence paced by the reading speed), or nil.
  public func timeoutLeft(now: Double) -> Double? {
    flow?.checkTimeouts(now: now)
    guard let flow else { return nil }
    let times = [flow.timeoutLeft(now: now), next(now: now) == .wait ? flow.paceWait(now: now) : nil]
    return times.compactMap { $0 }.min()
  }

  /// Offers bytes to `write` (which returns how many it took; 0 when the
  /// terminal is full, below 0 when it is gone) until it takes fewer than
  /// offered, `limit` bytes went out, flow control says wait, or nothing is
  /// left. Returns the bytes written. A terminal that is gone drops all.
  @discardableResult
  public func pump(limit: Int = .max, now: Double = 0, write: (ArraySlice<UInt8>) -> Int) -> Int {
    var total = 0
    flow?.checkTimeouts(now: now)
    loop: while total < limit {
      switch next(now: now) {
      case .idle, .wait: break loop
      case .urgent:
        let taken = write(urgent)
        if taken < 0 { return dropAll(total) }
        urgent = urgent.dropFirst(taken)
        if !urgent.isEmpty { break loop }
      case .ask:
        urgent = ArraySlice(GraphicsFlowControl.query)
        flow?.asked(now: now)
      case .piece:
        let unit = units[head]
        if sent == pieceEnd { pieceEnd = unit.stop(atOrAfter: sent + 1) ?? unit.bytes.count }
        let end = limit - total >= pieceEnd - sent ? pieceEnd : sent + (limit - total)
        let offered = end - sent
        let taken = write(unit.bytes[sent..<end])
        if taken < 0 { return dropAll(total) }
        sent += taken
        total += taken
        flow?.wrote(taken, now: now)
        if sent == unit.bytes.count { advance() }
        if taken < offered { break loop }
      }
    }
    compact()
    return total
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
  /// and what must arrive; nothing else. Also the tags of units that did
  /// not arrive whole.
  public func drain() -> (bytes: [UInt8], undelivered: [GraphicsUnitTag]) {
    let (finish, undelivered) = supersede(pausing: false)
    defer { _ = dropAll(0) }
    return (finish + units.joinedBytes, undelivered)
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
