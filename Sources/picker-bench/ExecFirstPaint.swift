import Foundation
import PickerTUI

/// `bench first-paint DIR --exec`: what the user waits for, from the shell's
/// exec to the screen: process start, dynamic loading, the terminal probe,
/// the listing, the first frame, and N thumbnails on screen (kitty images,
/// counted as they are placed), then exit. Runs the real binary on a
/// pseudo-terminal, with a private thumbnail cache, cold or warm; with
/// `--compare timg`, timg drawing the same photos runs in turn with it.
struct ExecFirstPaint {
  var folder: String
  var runs: Int
  var cells: TerminalSize
  var thumbnails: Int
  var compare: String?
  var json: Bool

  private let cellPixels = PixelSize(width: 8, height: 17)

  func run() throws {
    let cache = BenchCache.makeRoot()
    defer { BenchCache.remove(cache) }
    let files = try firstPhotos()
    let timg = try compare.map { try Self.executable(named: $0) }
    var cold: [PseudoTerminalRun.Timings] = []
    var warm: [PseudoTerminalRun.Timings] = []
    var stream: [PseudoTerminalRun.Timings] = []
    var other: [PseudoTerminalRun.Timings] = []
    for _ in 0..<max(1, runs) {
      // Cold: nothing cached; warm: the same again, from the cache it made;
      // then warm on a terminal that cannot read the picker's files (kitty
      // across ssh): the pictures go in the stream, in base64.
      try? FileManager.default.removeItem(atPath: cache)
      cold.append(try picker(cache: cache))
      warm.append(try picker(cache: cache))
      stream.append(try picker(cache: cache, readsFiles: false))
      if let timg { other.append(try self.timg(timg, files: files)) }
    }
    report(
      [("picker, cold cache", cold), ("picker, warm cache", warm), ("picker, warm, pictures in the stream", stream)]
        + (timg.map { [($0, other)] } ?? []))
  }

  /// The picker on the folder, until N thumbnails are placed; then q.
  private func picker(cache: String, readsFiles: Bool = true) throws -> PseudoTerminalRun.Timings {
    let terminal = try PseudoTerminalRun(cells: cells, cellPixels: cellPixels)
    terminal.readsFiles = readsFiles
    let wanted = thumbnails
    let environment = PseudoTerminalRun.pickerEnvironment(
      term: "xterm-kitty", home: (cache as NSString).deletingLastPathComponent)
    let hints = OutputSearch(Array("? help".utf8))
    let placements = PlacementCounter()
    return try terminal.run(
      [PickerBinary.path, "--thumbnails", "kitty", folder], environment: environment, settle: 2, quit: "q",
      firstFrame: { hints.found(in: $0) }, thumbnails: { placements.count(in: $0) >= wanted },
      done: { $0.thumbnails != nil || $0.exit != nil })
  }

  /// timg drawing the same photos in a grid with kitty images, to its exit.
  private func timg(_ executable: String, files: [String]) throws -> PseudoTerminalRun.Timings {
    let terminal = try PseudoTerminalRun(cells: cells, cellPixels: cellPixels)
    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = "xterm-kitty"
    environment.removeValue(forKey: "TMUX")
    let columns = max(1, cells.width / 25)
    return try terminal.run(
      [executable, "-pk", "--grid=\(columns)", "-g", "\(cells.width)x\(cells.height)"] + files,
      environment: environment, firstFrame: { !$0.isEmpty }, thumbnails: { _ in false }, done: { $0.exit != nil })
  }

  /// The folder's first N photos in the picker's order, for timg.
  private func firstPhotos() throws -> [String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { PhotoFileTypes.isShown(name: Array($0.utf8)) && !PhotoFileTypes.isHidden(name: Array($0.utf8)) }
      .sorted { NaturalOrder.precedes(Array($0.utf8), Array($1.utf8)) }
    guard names.count >= thumbnails else {
      throw BenchExit(code: 2, message: "\(folder) has \(names.count) photos, fewer than \(thumbnails)")
    }
    return names.prefix(thumbnails).map { folder + "/" + $0 }
  }

  private static func executable(named name: String) throws -> String {
    guard let path = programOnPath(name) else { throw BenchExit(code: 2, message: "\(name) is not on PATH") }
    return path
  }

  private func report(_ rows: [(String, [PseudoTerminalRun.Timings])]) {
    func text(_ value: Double?) -> String { value.map { String(format: "%.1f ms", $0) } ?? "—" }
    if json {
      let objects = rows.map { name, timings in
        let frame = median(timings.compactMap(\.firstFrame)).map { String(format: "%.2f", $0) } ?? "null"
        let shown = median(timings.compactMap(\.thumbnails)).map { String(format: "%.2f", $0) } ?? "null"
        let exit = median(timings.compactMap(\.exit)).map { String(format: "%.2f", $0) } ?? "null"
        return "{\"name\":\"\(name)\",\"first_frame_ms\":\(frame),\"thumbnails_ms\":\(shown),\"exit_ms\":\(exit)}"
      }
      print("[" + objects.joined(separator: ",") + "]")
      return
    }
    print("exec → screen, \(cells.width)x\(cells.height) cells, \(thumbnails) photos, medians of \(runs) runs:")
    for (name, timings) in rows {
      let frame = median(timings.compactMap(\.firstFrame))
      let shown = median(timings.compactMap(\.thumbnails))
      let exit = median(timings.compactMap(\.exit))
      if name.hasPrefix("picker") {
        print("  \(name): first frame \(text(frame)), \(thumbnails) thumbnails \(text(shown))")
      } else {
        print("  \(name): all \(thumbnails) drawn and exited \(text(exit))")
      }
    }
  }
}

/// Finds bytes in output read chunk by chunk (a match may span two chunks).
final class OutputSearch {
  private let needle: [UInt8]
  private var tail: [UInt8] = []

  init(_ needle: [UInt8]) { self.needle = needle }

  func found(in chunk: ArraySlice<UInt8>) -> Bool {
    let window = tail + chunk
    defer { tail = Array(window.suffix(needle.count - 1)) }
    return Self.firstIndex(of: needle, in: window, from: 0) != nil
  }

  static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard needle.count <= haystack.count - start, let first = needle.first else { return nil }
    var index = start
    while index <= haystack.count - needle.count {
      if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}

/// Counts the distinct images placed with kitty's `a=p` so far.
final class PlacementCounter {
  private static let marker = Array("\u{1B}_Ga=p,".utf8)
  private var ids: Set<[UInt8]> = []
  /// The end of the last chunk, where a command may have been cut.
  private var tail: [UInt8] = []

  func count(in chunk: ArraySlice<UInt8>) -> Int {
    let window = tail + chunk
    var from = 0
    var complete = window.count
    while let found = OutputSearch.firstIndex(of: Self.marker, in: window, from: from) {
      let fields = window[(found + Self.marker.count)...].prefix { $0 != 0x1B }
      // The command's end is not here yet: look again with the next chunk.
      if found + Self.marker.count + fields.count >= window.count {
        complete = found
        break
      }
      if let id = fields.split(separator: UInt8(ascii: ",")).first(where: { $0.starts(with: [UInt8(ascii: "i")]) }) {
        ids.insert(Array(id))
      }
      from = found + Self.marker.count
    }
    tail = Array(window[min(complete, max(0, window.count - 64))...])
    return ids.count
  }
}
