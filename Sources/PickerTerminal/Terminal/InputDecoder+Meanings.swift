/// The decoder's pure parts: what a finished sequence means (a key, a mouse
/// report, a terminal's reply), apart from finding where sequences end.
extension InputDecoder {
  /// Keys of `CSI … final` with no private marker.
  static func cursorKey(final: UInt8, numbers: [Int?]) -> Key? {
    // xterm's modifier parameter: 2 is Shift (`CSI 1 ; 2 C`).
    let shifted = numbers.count >= 2 && numbers[1] == 2
    switch final {
    case UInt8(ascii: "A"): return shifted ? .shiftUp : .up
    case UInt8(ascii: "B"): return shifted ? .shiftDown : .down
    case UInt8(ascii: "C"): return shifted ? .shiftRight : .right
    case UInt8(ascii: "D"): return shifted ? .shiftLeft : .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "P")...UInt8(ascii: "S"):
      // F1-F4 with modifiers (`CSI 1 ; 5 P`); bare `CSI P` is no key.
      return numbers.isEmpty ? nil : .function(Int(final - UInt8(ascii: "P")) + 1)
    // `~` is xterm's and the console's; rxvt adds `$` (Shift), `^` (Ctrl)
    // and `@` (both) in its place.
    case UInt8(ascii: "~"), UInt8(ascii: "$"), UInt8(ascii: "^"), UInt8(ascii: "@"):
      switch numbers.first ?? nil {
      case 1?, 7?: return .home
      case 3?: return .delete
      case 4?, 8?: return .end
      case 5?: return .pageUp
      case 6?: return .pageDown
      case let n? where (11...15).contains(n): return .function(n - 10)
      case let n? where (17...21).contains(n): return .function(n - 11)
      case let n? where (23...24).contains(n): return .function(n - 12)
      default: return nil
      }
    default: return nil
    }
  }

  /// Parameters split at `;`; a sub-parameter (`:`) keeps only its first part.
  static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int?] {
    guard !bytes.isEmpty else { return [] }
    return bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
      let digits = field.prefix { $0 != UInt8(ascii: ":") }
      guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }), digits.count <= 9 else { return nil }
      return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
  }

  static func mouseReport(code: Int, isPress: Bool, x: Int, y: Int) -> MouseReport {
    let button: MouseReport.Button
    switch (code & 64 != 0, code & 3) {
    case (false, 0): button = .left
    case (false, 1): button = .middle
    case (false, 2): button = .right
    case (true, 0): button = .wheelUp
    case (true, 1): button = .wheelDown
    default: button = .other
    }
    return MouseReport(button: button, isPress: isPress, isMotion: code & 32 != 0, x: max(0, x), y: max(0, y))
  }

  static func reply(kind: UInt8, body: ArraySlice<UInt8>) -> TerminalReply {
    let text = String(decoding: body, as: UTF8.self)
    switch kind {
    case UInt8(ascii: "_") where text.hasPrefix("G"):
      // `Gi=31,p=2;OK`: keys before the `;`, the message after.
      let parts = text.dropFirst().split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
      var id: Int?
      for field in parts[0].split(separator: ",") where field.hasPrefix("i=") { id = Int(field.dropFirst(2)) }
      return .kittyGraphics(id: id, message: parts.count > 1 ? String(parts[1]) : "")
    case UInt8(ascii: "P") where text.hasPrefix(">|"):
      return .version(String(text.dropFirst(2)))
    default:
      return .otherString
    }
  }
}
