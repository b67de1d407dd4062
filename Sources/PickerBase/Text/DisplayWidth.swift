/// How many terminal columns text takes, without asking the C locale.
///
/// wcwidth depends on the process locale, which makes views differ between
/// tests and the terminal; this small table covers what names contain:
/// combining marks take none, East Asian wide characters and emoji take two.
public enum DisplayWidth {
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return value < 0x20 || (value >= 0x7F && value < 0xA0) ? 0 : 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    // Zero-width space, variation selectors, and the vowels and finals of
    // decomposed Hangul (names made on macOS), which join the syllable's
    // first letter in glibc's wcwidth, which ncurses uses.
    if value == 0x200B || (0xFE00...0xFE0F).contains(value) || (0x1160...0x11FF).contains(value)
      || (0xD7B0...0xD7FF).contains(value)
    {
      return 0
    }
    // Flags are pairs of regional indicators; glibc gives each one column.
    if (0x1F1E6...0x1F1FF).contains(value) { return 1 }
    if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
    return 1
  }

  public static func of(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
      0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
      0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return true
    default:
      return false
    }
  }

  /// `text` cut to at most `width` columns, ending in "…" when cut.
  public static func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if of(text) <= width { return text }
    var out = ""
    var used = 0
    for scalar in text.unicodeScalars {
      let w = of(scalar)
      if used + w > width - 1 { break }
      out.unicodeScalars.append(scalar)
      used += w
    }
    return out + "…"
  }

  /// `text` cut from the left to at most `width` columns, starting with "…";
  /// for paths, whose end matters most.
  public static func truncateLeading(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if of(text) <= width { return text }
    var kept: [Unicode.Scalar] = []
    var used = 0
    for scalar in text.unicodeScalars.reversed() {
      let w = of(scalar)
      if used + w > width - 1 { break }
      kept.append(scalar)
      used += w
    }
    var out = "…"
    out.unicodeScalars.append(contentsOf: kept.reversed())
    return out
  }
}
