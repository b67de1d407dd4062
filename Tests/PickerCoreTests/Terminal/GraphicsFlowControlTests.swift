import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A terminal on a virtual clock: a tty buffer of `capacity` bytes that it
/// reads `speed` bytes a second from, answering each DA1 it reads.
private final class SimulatedTerminal {
  let capacity: Int
  let speed: Double
  let answers: Bool
  var buffer: [UInt8] = []
  var read = 0
  private var tail: [UInt8] = []
  var replies = 0
  private var carry = 0.0

  init(capacity: Int = 18 << 10, speed: Double, answers: Bool = true) {
    self.capacity = capacity
    self.speed = speed
    self.answers = answers
  }

  func write(_ bytes: ArraySlice<UInt8>) -> Int {
    let taken = min(bytes.count, capacity - buffer.count)
    buffer += bytes.prefix(taken)
    return taken
  }

  /// Reads for `seconds`; returns how many questions it answered.
  func run(for seconds: Double) -> Int {
    carry += speed * seconds
    let count = min(buffer.count, Int(carry))
    carry -= Double(count)
    let chunk = tail + buffer.prefix(count)
    buffer.removeFirst(count)
    read += count
    tail = Array(chunk.suffix(2))
    guard answers, chunk.count >= 3 else { return 0 }
    // A question split between two reads counts once, when it is whole.
    let query = GraphicsFlowControl.query
    var found = 0
    for index in 0...(chunk.count - 3) where chunk[index] == query[0] {
      if chunk[index + 1] == query[1] && chunk[index + 2] == query[2] { found += 1 }
    }
    return found
  }
}

private func picture(_ id: UInt32, bytes: Int) -> GraphicsUnit {
  // kitty-like: chunks of 4 KB, each a sequence of its own.
  var data: [UInt8] = []
  var left = bytes
  while left > 0 {
    let piece = min(4096, left)
    data += Array("\u{1B}_G".utf8) + [UInt8](repeating: UInt8(ascii: "A"), count: piece) + [0x1B, 0x5C]
    left -= piece
  }
  return GraphicsUnit(bytes: data, tag: .transmit(id), stopAfter: [0x1B, 0x5C], pausable: true)
}

/// A sixel string of 1 KB bands: no question may go inside it.
private func sixelBytes(bands: Int) -> [UInt8] {
  let band = [UInt8](repeating: UInt8(ascii: "~"), count: 1023) + [UInt8(ascii: "-")]
  return Array("\u{1B}Pq".utf8) + Array(repeating: band, count: bands).flatMap { $0 } + [0x1B, 0x5C]
}

@Suite struct GraphicsFlowControlTests {
  @Test func aSlowTerminalIsNeverSentMoreThanAFewMillisecondsAhead() {
    let terminal = SimulatedTerminal(speed: 1_000_000)
    let queue = GraphicsQueue(flowControl: GraphicsFlowControl())
    queue.append((1...60).map { picture($0, bytes: 70_000) })
    var now = 0.0
    var worst = 0
    var worstLate = 0
    // Three seconds, a millisecond at a time; the first second learns.
    for step in 0..<3000 {
      if queue.canWrite(now: now) { queue.pump(now: now, write: terminal.write) }
      now += 0.001
      // It reads in bursts, 4 ms at a time.
      if step % 4 == 3 { for _ in 0..<terminal.run(for: 0.004) { queue.answered(now: now) } }
      if step < 1000 { worst = 0 } else { worstLate = max(worstLate, terminal.buffer.count) }
      worst = max(worst, terminal.buffer.count)
    }
    // Text written now waits behind what the tty holds: at 1 MB/s, 16 ms
    // is 16,000 bytes.
    #expect(worstLate < 16_000, "the tty held \(worstLate) bytes")
    #expect(terminal.read > 2_850_000, "and the terminal still read at its speed: \(terminal.read)")
  }

  @Test func aSlowTerminalGetsSixelPicturesBandByBand() {
    let terminal = SimulatedTerminal(speed: 1_000_000)
    let queue = GraphicsQueue(flowControl: GraphicsFlowControl())
    // Tiles of 8 KB (a grid tile is about that) in 1 KB bands: no
    // question can go inside one, so a tile goes at the pace the tty takes
    // it once the question before it is answered.
    let sixel = sixelBytes(bands: 8)
    queue.append((0..<450).map { GraphicsUnit(bytes: sixel, tag: .place(UInt32($0)), stopAfter: Array("-".utf8)) })
    var now = 0.0
    var worstLate = 0
    for step in 0..<3000 {
      if queue.canWrite(now: now) { queue.pump(now: now, write: terminal.write) }
      now += 0.001
      for _ in 0..<terminal.run(for: 0.001) { queue.answered(now: now) }
      if step >= 1000 { worstLate = max(worstLate, terminal.buffer.count) }
    }
    #expect(worstLate < 16_000, "the tty held \(worstLate) bytes")
    #expect(terminal.read > 2_850_000, "read \(terminal.read)")
  }

  @Test func aFastTerminalGetsAWideWindow() {
    let terminal = SimulatedTerminal(capacity: 1 << 30, speed: 200_000_000)
    let queue = GraphicsQueue(flowControl: GraphicsFlowControl())
    queue.append((1...200).map { picture($0, bytes: 70_000) })
    var now = 0.0
    for _ in 0..<100 {
      if queue.canWrite(now: now) { queue.pump(now: now, write: terminal.write) }
      now += 0.001
      for _ in 0..<terminal.run(for: 0.001) { queue.answered(now: now) }
    }
    #expect(queue.flow!.window > 1 << 20, "window \(queue.flow!.window)")
    #expect(queue.isEmpty, "14 MB in 100 ms")
  }

  @Test func aTerminalThatNeverAnswersIsSentEverythingAfterAFewSeconds() {
    let terminal = SimulatedTerminal(capacity: 1 << 30, speed: 100_000_000, answers: false)
    let queue = GraphicsQueue(flowControl: GraphicsFlowControl())
    queue.append((1...10).map { picture($0, bytes: 70_000) })
    var now = 0.0
    while now < 5 && !queue.isEmpty {
      queue.pump(now: now, write: terminal.write)
      now += 0.01
      _ = terminal.run(for: 0.01)
    }
    #expect(queue.isEmpty && queue.flow!.isEnabled == false)
    #expect(queue.flow!.answersAwaited == 0, "nothing to wait for at exit")
    #expect(now > 1.9, "questions were waited for, a second each")
  }

  @Test func inTheMiddleOfASixelWithQuestionsOutTheQueueWaitsInsteadOfSpinning() {
    let queue = GraphicsQueue(flowControl: GraphicsFlowControl())
    let sixel = sixelBytes(bands: 100)
    // A picture before it leaves a question out.
    queue.append([picture(1, bytes: 40_000), GraphicsUnit(bytes: sixel, tag: .place(2), stopAfter: Array("-".utf8))])
    var taken = 0
    queue.pump(now: 0) { bytes in
      taken += bytes.count
      return bytes.count
    }
    #expect(taken < 40_000 + 32 << 10, "the window held: \(taken)")
    // Until the terminal answers, nothing can go: the loop must not be
    // woken for room it cannot use.
    #expect(!queue.canWrite(now: 0.001))
    #expect(queue.pump(now: 0.001) { $0.count } == 0)
    queue.answered(now: 0.01)
    #expect(queue.canWrite(now: 0.01))
  }

  @Test func aSixelBegunBeforeAnySpeedIsKnownGoesOnOnceItsQuestionIsAnswered() {
    let queue = GraphicsQueue(flowControl: GraphicsFlowControl())
    let sixel = sixelBytes(bands: 100)
    queue.append([picture(1, bytes: 40_000), GraphicsUnit(bytes: sixel, tag: .place(2), stopAfter: Array("-".utf8))])
    var now = 0.0
    var sent = 0
    // A terminal that answers each question a millisecond later: no span
    // is long enough to measure a speed by, yet the picture must finish.
    while now < 1 && !queue.isEmpty {
      if queue.canWrite(now: now) { sent += queue.pump(now: now) { $0.count } }
      now += 0.001
      if queue.flow!.answersAwaited > 0 { queue.answered(now: now) }
    }
    #expect(queue.isEmpty, "sent \(sent) of \(40_000 + sixel.count)")
  }

  @Test func aLateAnswerToAQuestionGivenUpOnDoesNotAnswerANewerOne() {
    var flow = GraphicsFlowControl()
    flow.wrote(10_000, now: 0)
    flow.asked(now: 0)
    flow.checkTimeouts(now: 1.5)
    #expect(!flow.hasQuestionsOut && flow.answersAwaited == 1)
    flow.wrote(10_000, now: 1.5)
    flow.asked(now: 1.5)
    flow.answer(now: 1.6)  // the first question's, late
    #expect(flow.hasQuestionsOut, "the newer question still waits for its own")
    #expect(flow.answered == 10_000)
    flow.answer(now: 1.7)
    #expect(!flow.hasQuestionsOut && flow.answered == 20_000)
  }

  @Test func questionsOutWhenThePickerStopsAreNotTimeoutsAfterItResumes() {
    var flow = GraphicsFlowControl()
    for at in [0.0, 0.1, 0.2] {
      flow.wrote(20_000, now: at)
      flow.asked(now: at)
    }
    flow.stopWaiting()  // Ctrl-Z
    flow.checkTimeouts(now: 60)  // fg, a minute later
    #expect(flow.isEnabled && !flow.hasQuestionsOut && flow.room > 0)
    // Their answers come late, then a new question's.
    flow.wrote(1_000, now: 60)
    flow.asked(now: 60)
    for _ in 0..<4 { flow.answer(now: 60.01) }
    #expect(flow.isEnabled && !flow.hasQuestionsOut && flow.answered == 61_000)
  }

  @Test func theProbesLateAnswerIsNotTakenForOurs() {
    var flow = GraphicsFlowControl()
    flow.expectLateAnswer(now: 0)
    flow.wrote(5_000, now: 0)
    flow.asked(now: 0)
    #expect(flow.answersAwaited == 1, "the picker waits at exit for its own question only")
    flow.answer(now: 0.001)
    #expect(flow.hasQuestionsOut && flow.answered == 0)
  }

  @Test func questionsGoOnlyBetweenSequences() {
    let terminal = SimulatedTerminal(capacity: 1 << 30, speed: 1_000_000)
    let queue = GraphicsQueue(flowControl: GraphicsFlowControl())
    let sixel = GraphicsUnit(
      bytes: Array("\u{1B}Pq".utf8) + [UInt8](repeating: UInt8(ascii: "~"), count: 100_000) + [0x1B, 0x5C],
      tag: .place(1), stopAfter: Array("-".utf8))
    queue.append([sixel, picture(2, bytes: 20_000)])
    queue.pump(now: 0, write: terminal.write)
    let sent = String(decoding: terminal.buffer, as: UTF8.self)
    // The sixel string is one sequence: the question waits for its end.
    #expect(!sent.prefix(100_003).contains("\u{1B}[c"))
    #expect(sent.dropFirst(100_005).hasPrefix("\u{1B}[c"))
  }
}
