import Foundation

/// Whether the fonts installed here can draw the picker's marks: a mark no
/// font has shows as an empty box, and the user cannot tell a copy from a
/// stack. Asked of fontconfig (`fc-list :charset=…`), which is what
/// terminals find their fallback fonts with.
enum MarkFonts {
  /// The marks the grid and the preview draw, and what each says.
  static let marks: [(glyph: Character, meaning: String)] = [
    ("✓", "picked"), ("✗", "cannot be shown"), ("▶", "video"), ("★", "sharpest of a stack"),
    ("◫", "copies"), ("▤", "folder"), ("×", "stack"), ("░", "loading"),
  ]

  /// "marks: every one has a font", or which have none and what to do.
  static func line(fcList: String = "/usr/bin/fc-list") -> String {
    guard FileManager.default.isExecutableFile(atPath: fcList) else {
      return "marks: fonts not checked (no fc-list: fontconfig is not installed)"
    }
    let missing = marks.filter { !hasFont(for: $0.glyph, fcList: fcList) }
    guard !missing.isEmpty else {
      return "marks: every mark has a font (" + marks.map { String($0.glyph) }.joined() + ")"
    }
    return "marks: no installed font draws "
      + missing.map { "\($0.glyph) (\($0.meaning))" }.joined(separator: ", ")
      + ": they show as boxes; install fonts-dejavu-core"
  }

  private static func hasFont(for glyph: Character, fcList: String) -> Bool {
    guard let scalar = glyph.unicodeScalars.first else { return true }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: fcList)
    process.arguments = [":charset=" + String(scalar.value, radix: 16), "family"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return true }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return !output.isEmpty
  }
}
