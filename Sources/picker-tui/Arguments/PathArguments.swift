import Foundation
import PickerTUI

/// Turns the command line's paths into sources: each folder becomes a Folder
/// source rooted where it was given; files, missing paths and stdin's paths
/// form the Preselected source.
struct PathArguments {
  var folders: [PathBytes] = []
  var files: [PathBytes] = []

  /// `arguments` are the positional paths ArgumentParser found; their raw
  /// bytes come from argv (see `rawPositionals`).
  init(_ arguments: [String]) {
    for path in Self.rawPositionals(matching: arguments) {
      if DirectoryReader.fileKind(path) == .folder {
        folders.append(path)
      } else {
        files.append(path)
      }
    }
  }

  /// Options whose value is the next argument, so it is not taken for a path.
  static let optionsWithValues: Set<String> = [
    "--max", "--min", "--source", "--colors", "--page-size", "--thumbnails", "--config", "--download-dir", "--since",
    "--until", "--place", "--min-rating", "--label",
  ]

  /// The positional arguments as the shell passed them. ArgumentParser gives
  /// Strings, which cannot hold a name that is not UTF-8 (two such names may
  /// even decode to the same String), so argv is walked once, in order, and
  /// each positional is matched to the next raw argument that decodes to it.
  static func rawPositionals(matching positionals: [String]) -> [PathBytes] {
    var result: [PathBytes] = []
    var next = 0
    var index = 1
    var afterDoubleDash = false
    while index < Int(CommandLine.argc), next < positionals.count {
      defer { index += 1 }
      guard let pointer = CommandLine.unsafeArgv[index] else { continue }
      let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
      let text = String(decoding: bytes, as: UTF8.self)
      if !afterDoubleDash && text != positionals[next] {
        if text == "--" { afterDoubleDash = true }
        if optionsWithValues.contains(text) { index += 1 }
        continue
      }
      if text == positionals[next] {
        result.append(PathBytes(bytes))
        next += 1
      }
    }
    return result + positionals[next...].map { PathBytes($0) }
  }

  /// Why none of the paths given can be opened ("no such file or directory:
  /// ~/Pictrues"), when that is so: a typo must not open an empty grid.
  /// Nil when any of them exists (the missing ones are then shown marked).
  func noneExists() -> String? {
    guard folders.isEmpty, !files.isEmpty else { return nil }
    var reasons: [String] = []
    for file in files {
      guard let reason = DirectoryReader.unreachableReason(file) else { return nil }
      reasons.append("\(reason): \(Sanitizer.sanitize(file.bytes))")
    }
    let suggestion =
      files.count == 1
      ? Self.nearestSubcommand(to: files[0].lossyString).map {
        " (did you mean `picker-tui \($0)`?)"
      } : nil
    return reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; and \(reasons.count - 3) more" : "")
      + (suggestion ?? "")
  }

  /// The subcommands a mistyped first word may have meant.
  static let subcommands = ["index", "doctor", "preview", "thumbnail"]

  /// The subcommand `word` is a typo of ("idnex": index): one at most two
  /// edits away, swapped letters counting as one; nil for a path.
  static func nearestSubcommand(to word: String) -> String? {
    guard !word.contains("/"), !word.contains("."), word.count >= 3 else { return nil }
    let typed = Array(word.lowercased())
    return subcommands.map { ($0, editDistance(typed, Array($0))) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
  }

  /// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }

  /// Titles for folder sources: "Files" for one, the folder names for more.
  func folderTitles() -> [String] {
    guard folders.count > 1 else { return folders.map { _ in "Files" } }
    return folders.map { Sanitizer.sanitize($0.lastComponent) }
  }
}

/// Reads paths from a descriptor on a background thread into a `PathStream`.
enum PathReader {
  /// Longer than any path a file system accepts: not a path, so dropped
  /// rather than kept growing in memory.
  static let longestEntry = 64 * 1024

  static func start(descriptor: Int32, separator: UInt8, into stream: PathStream) {
    let thread = Thread {
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = FileIO.read(descriptor, into: &buffer)
        if count <= 0 { break }
        var paths: [PathBytes] = []
        // Only the new bytes are scanned: the pending tail has no separator.
        for byte in buffer[0..<count] {
          if byte == separator {
            if !pending.isEmpty && pending.count <= longestEntry { paths.append(PathBytes(pending)) }
            pending.removeAll(keepingCapacity: true)
          } else if pending.count <= longestEntry {
            pending.append(byte)
          }
        }
        if !paths.isEmpty { stream.append(contentsOf: paths) }
      }
      if !pending.isEmpty && pending.count <= longestEntry { stream.append(contentsOf: [PathBytes(pending)]) }
      stream.finish()
    }
    thread.start()
  }
}
