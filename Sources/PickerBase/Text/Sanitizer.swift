/// Makes names from disk or the network safe to draw.
///
/// A file name can hold control characters and escape sequences that would
/// move the cursor or retitle the terminal, and bytes that are not UTF-8. On
/// screen each such thing is shown escaped (`\e`, `\n`, `\x85`, `\xFF`,
/// `\u{202E}`); stdout still gets the raw bytes.
public enum Sanitizer {
  public static func sanitize(_ bytes: [UInt8]) -> String {
    var out = ""
    out.reserveCapacity(bytes.count)
    var index = 0
    // Whether the last thing written is a character of the name that a
    // combining mark may join (not an escape, not the start).
    var hasBase = false
    while index < bytes.count {
      guard let (scalar, length) = decodeScalar(bytes, at: index) else {
        out += "\\x" + hex(UInt32(bytes[index]), digits: 2)
        hasBase = false
        index += 1
        continue
      }
      if let escape = escaped(scalar) {
        out += escape
        hasBase = false
      } else {
        // A mark with nothing to sit on would vanish into the character
        // before it ("\u{301}lead.jpg" would look like "lead.jpg"): give it a
        // visible base.
        if !hasBase && isCombining(scalar) { out += "◌" }
        out.unicodeScalars.append(scalar)
        hasBase = true
      }
      index += length
    }
    return out
  }

  static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .spacingMark: return true
    default: return false
    }
  }

  public static func sanitize(_ text: String) -> String { sanitize(Array(text.utf8)) }

  /// The visible spelling of a scalar that must not reach the terminal, or
  /// nil when it is safe as it is.
  static func escaped(_ scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x0A: return "\\n"
    case 0x09: return "\\t"
    case 0x0D: return "\\r"
    case 0x1B: return "\\e"
    case 0x00..<0x20, 0x7F: return "\\x" + hex(scalar.value, digits: 2)
    case 0x80..<0xA0: return "\\u{" + hex(scalar.value, digits: 2) + "}"
    // Bidirectional overrides and isolates reorder what follows them.
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
      return "\\u{" + hex(scalar.value, digits: 4) + "}"
    default:
      // Line separators and code points with no character assigned have no
      // agreed width; the terminal would draw them unpredictably.
      switch scalar.properties.generalCategory {
      case .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate:
        return "\\u{" + hex(scalar.value, digits: 4) + "}"
      default: return nil
      }
    }
  }

  /// Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF.
  static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
    let lead = bytes[index]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    let length: Int
    var value: UInt32
    var minimum: UInt32
    switch lead {
    case 0xC2...0xDF: (length, value, minimum) = (2, UInt32(lead & 0x1F), 0x80)
    case 0xE0...0xEF: (length, value, minimum) = (3, UInt32(lead & 0x0F), 0x800)
    case 0xF0...0xF4: (length, value, minimum) = (4, UInt32(lead & 0x07), 0x10000)
    default: return nil
    }
    guard index + length <= bytes.count else { return nil }
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
