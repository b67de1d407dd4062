import Foundation

/// Reads xdg-user-dirs' file, where a localised pictures folder (~/Bilder)
/// is named: lines like XDG_PICTURES_DIR="$HOME/Bilder".
enum UserDirectories {
  static func picturesFolder(in file: String, home: String) -> String? {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
      var value = line.dropFirst("XDG_PICTURES_DIR=".count)
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
      let path = value.hasPrefix("$HOME") ? home + value.dropFirst("$HOME".count) : String(value)
      return path.isEmpty || path == home || path == home + "/" ? nil : path
    }
    return nil
  }
}
