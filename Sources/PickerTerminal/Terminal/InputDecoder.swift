/// Decodes the bytes a terminal sends into keys, mouse reports and replies to
/// our queries. One decoder serves every terminal: it knows the terminfo
/// forms and the common xterm, rxvt, linux-console and tmux forms of the
/// special keys, so an unknown sequence is ignored instead of being read as
/// a bare Esc (which would cancel the picker and lose the selection).
///
/// Only a lone ESC, with nothing after it within the escape delay, is the
/// Esc key: the caller calls `timeOut()` once `waiting` says the delay has
/// passed. Replies (device attributes, kitty graphics answers, XTVERSION…)
/// are recognised whole even when split across reads, and never become keys.
public struct InputDecoder: Sendable {
  /// What the undecoded bytes wait for before `timeOut()` may be called.
  public enum Wait: Equatable, Sendable {
    /// Nothing is pending.
    case none
    /// A key sequence (or a lone ESC) is unfinished: the escape delay.
    case escapeDelay
    /// A reply is unfinished: replies come whole, but a slow link may cut
    /// one in two, so it is given longer before being dropped.
    case replyDelay
  }

  /// Longest control sequence or string kept; longer ones are dropped.
  static let maxSequenceBytes = 4096

  private var pending: [UInt8] = []
  /// The rest of an over-long control string is skipped up to its end.
  private var skippingString = false
  public private(set) var waiting = Wait.none

  public init() {}

  /// Decodes what can be decoded; an unfinished sequence waits for more.
  public mutating func decode(_ bytes: [UInt8]) -> [TerminalInputEvent] {
    pending += bytes
    var events: [TerminalInputEvent] = []
    var index = 0
    waiting = .none
    while index < pending.count {
      if skippingString {
        index = skipToStringEnd(from: index)
        continue
      }
      if skippingSequence {
        let byte = pending[index]
        index += 1
        if !(0x20...0x3F).contains(byte) { skippingSequence = false }
        continue
      }
      switch step(at: index) {
      case .event(let event, let length):
        events.append(event)
        index += length
      case .skip(let length):
        index += length
      case .needMore(let wait):
        if pending.count - index > Self.maxSequenceBytes {
          // Too long to be anything we asked for or a key: drop it.
          if pending[index + 1] != UInt8(ascii: "[") { skippingString = true }
          index = pending.count
        } else {
          waiting = wait
          pending.removeFirst(index)
          return events
        }
      }
    }
    pending.removeAll(keepingCapacity: true)
    // The end of a skipped reply may never come: time it out like a reply.
    if skippingString || skippingSequence { waiting = .replyDelay }
    return events
  }

  /// The delay passed with nothing more: a lone ESC is the Esc key, any
  /// other unfinished sequence is dropped.
  public mutating func timeOut() -> [TerminalInputEvent] {
    let wasSkipping = skippingString
    let cut = pending
    pending.removeAll()
    waiting = .none
    // A lone ESC, or Esc pressed several times in a row, is that many Escs.
    if !cut.isEmpty && cut.allSatisfy({ $0 == 0x1B }) { return cut.map { _ in .key(.escape) } }
    // A reply cut short: its rest may still come, and must not be read as
    // keys. A control string is skipped up to its end (one more delay at
    // most); a sequence's parameters up to its final byte.
    skippingString = !wasSkipping && cut.count > 1 && Self.startsControlString(cut[1])
    skippingSequence = !skippingString && cut.count > 2 && cut[1] == UInt8(ascii: "[") && "<=>?".utf8.contains(cut[2])
    if skippingString || skippingSequence { waiting = .replyDelay }
    return []
  }

  /// The rest of a sequence that timed out is skipped up to its final byte.
  private var skippingSequence = false

  static func startsControlString(_ byte: UInt8) -> Bool { "P]_^X".utf8.contains(byte) }

  private enum Step {
    case event(TerminalInputEvent, length: Int)
    case skip(Int)
    case needMore(Wait)
  }

  private func byte(_ index: Int) -> UInt8? { index < pending.count ? pending[index] : nil }

  private func step(at index: Int) -> Step {
    let first = pending[index]
    if first == 0x1B { return escape(at: index) }
    if let key = Self.controlKey(first) { return .event(.key(key), length: 1) }
    if first < 0x20 || first == 0x7F { return .skip(1) }
    switch character(at: index) {
    case .needMore: return .needMore(.escapeDelay)
    case .invalid: return .skip(1)
    case .character(let character, let length): return .event(.key(.char(character)), length: length)
    }
  }

  static func controlKey(_ byte: UInt8) -> Key? {
    switch byte {
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case 0x7F, 0x08: return .backspace
    case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(byte + 0x60)))
    default: return nil
    }
  }

  private enum Decoded {
    case character(Character, length: Int)
    case needMore
    case invalid
  }

  /// One UTF-8 character (a printable one; controls are handled before).
  private func character(at index: Int) -> Decoded {
    let lead = pending[index]
    let length: Int
    switch lead {
    case 0x20...0x7E: return .character(Character(Unicode.Scalar(lead)), length: 1)
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .invalid
    }
    var value = UInt32(lead) & (0xFF >> (length + 1))
    for offset in 1..<length {
      guard let next = byte(index + offset) else { return .needMore }
      guard next & 0xC0 == 0x80 else { return .invalid }
      value = value << 6 | UInt32(next & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value), value >= 0xA0 else { return .invalid }
    return .character(Character(scalar), length: length)
  }

  private func escape(at index: Int) -> Step {
    guard let second = byte(index + 1) else { return .needMore(.escapeDelay) }
    switch second {
    case UInt8(ascii: "["): return controlSequence(at: index)
    case UInt8(ascii: "O"): return singleShift(at: index)
    case UInt8(ascii: "P"), UInt8(ascii: "]"), UInt8(ascii: "_"):
      // A reply (DCS `P>|`, `P1+r`; OSC `]11;`; APC `_G`), or Alt+P, Alt+]
      // or Alt+_ typed: the byte after tells them apart.
      guard let third = byte(index + 2) else { return .needMore(.escapeDelay) }
      let reply: Bool
      switch second {
      case UInt8(ascii: "P"): reply = "0123456789>+=$|".utf8.contains(third)
      case UInt8(ascii: "]"): reply = (0x30...0x39).contains(third)
      default: reply = third == UInt8(ascii: "G")
      }
      if reply { return controlString(at: index) }
      return .event(.key(.alt(Character(Unicode.Scalar(second)))), length: 2)
    case 0x1B:
      // ESC ESC [ or ESC ESC O: Alt plus a cursor key (rxvt's Alt+arrow),
      // where the first ESC is no key of its own. Anything else is Esc
      // pressed twice, quickly: both count (the first closes a form, the
      // second cancels, as the user meant).
      // But a terminal's reply right after Esc (`ESC [ ? … c`, the answer
      // to the question asked after each batch of pictures) leaves the
      // Esc a key of its own.
      guard let third = byte(index + 2) else { return .needMore(.escapeDelay) }
      if third == UInt8(ascii: "[") {
        guard let fourth = byte(index + 3) else { return .needMore(.escapeDelay) }
        if "?>=".utf8.contains(fourth) { return .event(.key(.escape), length: 1) }
        return .skip(1)
      }
      if third == UInt8(ascii: "O") { return .skip(1) }
      return .event(.key(.escape), length: 1)
    case 0x00..<0x20, 0x7F:
      // Alt plus a control key (or Esc and Enter typed fast): the control
      // key still counts.
      return Self.controlKey(second).map { .event(.key($0), length: 2) } ?? .skip(2)
    default:
      switch character(at: index + 1) {
      case .needMore: return .needMore(.escapeDelay)
      case .invalid: return .skip(1)
      case .character(let character, let length): return .event(.key(.alt(character)), length: 1 + length)
      }
    }
  }

  /// `ESC O x`: application-mode cursor keys, Home/End, F1-F4, keypad Enter.
  private func singleShift(at index: Int) -> Step {
    // Some terminals put modifiers in (`ESC O 1;2P`, `ESC O 5A`).
    var end = index + 2
    while let next = byte(end), (0x30...0x3F).contains(next) { end += 1 }
    guard let final = byte(end) else { return .needMore(.escapeDelay) }
    let length = end + 1 - index
    let key: Key?
    switch final {
    case UInt8(ascii: "A"): key = .up
    case UInt8(ascii: "B"): key = .down
    case UInt8(ascii: "C"): key = .right
    case UInt8(ascii: "D"): key = .left
    case UInt8(ascii: "H"): key = .home
    case UInt8(ascii: "F"): key = .end
    case UInt8(ascii: "M"): key = .enter
    case UInt8(ascii: "P")...UInt8(ascii: "S"): key = .function(Int(final - UInt8(ascii: "P")) + 1)
    default: key = nil
    }
    return key.map { .event(.key($0), length: length) } ?? .skip(length)
  }

  /// `ESC [ params intermediates final`, plus the two odd forms: the X10
  /// mouse report (`ESC [ M` and three raw bytes) and the linux console's
  /// F1-F5 (`ESC [ [ A`…`E`).
  private func controlSequence(at index: Int) -> Step {
    let start = index + 2
    guard let head = byte(start) else { return .needMore(.escapeDelay) }
    if head == UInt8(ascii: "M") {
      guard start + 3 < pending.count else { return .needMore(.escapeDelay) }
      return x10Mouse(Array(pending[(start + 1)...(start + 3)]), length: 6)
    }
    if head == UInt8(ascii: "[") {
      guard let final = byte(start + 1) else { return .needMore(.escapeDelay) }
      let number = Int(final) - Int(UInt8(ascii: "A")) + 1
      return (1...5).contains(number) ? .event(.key(.function(number)), length: 4) : .skip(4)
    }
    var end = start
    while let next = byte(end), (0x20...0x3F).contains(next) {
      // rxvt ends Shift+key with `$`, which is an intermediate byte elsewhere.
      if next == UInt8(ascii: "$"), end > start, pending[start..<end].allSatisfy({ (0x30...0x39).contains($0) }) {
        break
      }
      end += 1
    }
    guard let final = byte(end) else {
      // Private markers start replies (and SGR mouse reports): a slow link
      // may split them, so they are given longer.
      return .needMore("<=>?".utf8.contains(head) ? .replyDelay : .escapeDelay)
    }
    guard (0x40...0x7E).contains(final) || final == UInt8(ascii: "$") else {
      // A broken sequence: drop what came before the stray byte.
      return .skip(end - index)
    }
    let parameters = Array(pending[start..<end])
    let length = end + 1 - index
    return interpretControlSequence(parameters: parameters, final: final).map { .event($0, length: length) }
      ?? .skip(length)
  }

  private func interpretControlSequence(parameters: [UInt8], final: UInt8) -> TerminalInputEvent? {
    var marker: UInt8?
    var body = parameters[...]
    if let first = body.first, "<=>?".utf8.contains(first) {
      marker = first
      body = body.dropFirst()
    }
    let numbers = Self.numbers(body)
    switch (marker, final) {
    case (UInt8(ascii: "<"), UInt8(ascii: "M")), (UInt8(ascii: "<"), UInt8(ascii: "m")):
      return sgrMouse(numbers, isPress: final == UInt8(ascii: "M"))
    case (UInt8(ascii: "?"), UInt8(ascii: "c")):
      return .reply(.primaryAttributes(numbers.compactMap { $0 }))
    case (_?, UInt8(ascii: "c")):
      return .reply(.secondaryAttributes(numbers.compactMap { $0 }))
    case (UInt8(ascii: "?"), UInt8(ascii: "S")):
      let values = numbers.compactMap { $0 }
      guard values.count >= 2 else { return .reply(.otherString) }
      return .reply(.graphicsAttribute(item: values[0], status: values[1], values: Array(values.dropFirst(2))))
    case (nil, UInt8(ascii: "t")):
      let values = numbers.map { $0 ?? 0 }
      guard values.count >= 3 else { return nil }
      return .reply(.windowReport(kind: values[0], first: values[1], second: values[2]))
    case (nil, _):
      return Self.cursorKey(final: final, numbers: numbers).map { .key($0) }
    default:
      return nil
    }
  }

  private func sgrMouse(_ numbers: [Int?], isPress: Bool) -> TerminalInputEvent? {
    guard numbers.count == 3, let code = numbers[0], let x = numbers[1], let y = numbers[2] else { return nil }
    return .mouse(Self.mouseReport(code: code, isPress: isPress, x: x - 1, y: y - 1))
  }

  private func x10Mouse(_ raw: [UInt8], length: Int) -> Step {
    let code = Int(raw[0]) - 32
    // Button 3 is X10's "released", whichever button it was.
    let report = Self.mouseReport(
      code: code & 3 == 3 && code & 64 == 0 ? code & ~3 : code, isPress: code & 3 != 3 || code & 64 != 0,
      x: Int(raw[1]) - 33, y: Int(raw[2]) - 33)
    return .event(.mouse(report), length: length)
  }

  /// DCS, OSC, APC, PM and SOS strings, ended by ST (`ESC \`) or BEL.
  private func controlString(at index: Int) -> Step {
    let kind = pending[index + 1]
    var end = index + 2
    while end < pending.count {
      let value = pending[end]
      if value == 0x07 {
        return .event(.reply(Self.reply(kind: kind, body: pending[(index + 2)..<end])), length: end + 1 - index)
      }
      if value == 0x1B {
        guard let next = byte(end + 1) else { return .needMore(.replyDelay) }
        guard next == UInt8(ascii: "\\") else { return .skip(end - index) }  // cut short by a new sequence
        return .event(.reply(Self.reply(kind: kind, body: pending[(index + 2)..<end])), length: end + 2 - index)
      }
      end += 1
    }
    return .needMore(.replyDelay)
  }

  private mutating func skipToStringEnd(from index: Int) -> Int {
    var position = index
    while position < pending.count {
      if pending[position] == 0x07
        || (pending[position] == UInt8(ascii: "\\") && position > 0 && pending[position - 1] == 0x1B)
      {
        skippingString = false
        return position + 1
      }
      position += 1
    }
    return position
  }

}
