import ArgumentParser
import Foundation
import PickerTUI

/// Find as you type on a big index: `/` then a query a letter at a time,
/// each key timed from when it was due to the frame that shows the results
/// of what is typed so far; then Enter, `a` (everything listed selected)
/// and the time to that frame; then the picks as `--format json` prints them.
struct FindBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "find", abstract: "Search as you type, select all and JSON output on an index of made-up rows.")

  @Option(help: "Made-up rows in the index (cameras and dates vary; see --query).")
  var synthetic = 100_000

  @Option(help: "What is typed, a letter at a time.")
  var query = "pixel 7 2026"

  @Option(help: "Milliseconds between keys; 0: each key waits for the last one's results.")
  var interval = 0

  @Option(help: "Rounds of typing the query.")
  var runs = 5

  @Flag(help: "Print one JSON object.")
  var json = false

  /// The cameras the rows cycle through: the query's words name one.
  static let cameras = [("Google", "Pixel 7"), ("Canon", "Canon EOS R5"), ("FUJIFILM", "X-T4"), ("Apple", "iPhone 13")]

  func run() throws {
    let folder = NSTemporaryDirectory() + "picker-bench-find-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let indexPath = folder + "/library.sqlite"
    let root = CanonicalRoot.of(PathBytes(folder))
    let index = LibraryIndex(path: indexPath)
    try IndexBench.addSyntheticRows(synthetic, under: root, to: index)
    try index.withDatabase { database throws(SQLiteError) in
      let cases = Self.cameras.enumerated().map { "WHEN \($0.offset) THEN '\($0.element.0)'" }.joined(separator: " ")
      let models = Self.cameras.enumerated().map { "WHEN \($0.offset) THEN '\($0.element.1)'" }.joined(separator: " ")
      try database.execute(
        "UPDATE photo SET make = CASE id % \(Self.cameras.count) \(cases) END,"
          + " model = CASE id % \(Self.cameras.count) \(models) END")
    }
    var keyTimes: [Double] = []
    var selectTimes: [Double] = []
    var jsonTimes: [Double] = []
    var selected = 0
    var cancelled = 0
    var catalogTimes: [Double] = []
    var catalogBytes = 0
    for _ in 0..<max(1, runs) {
      let round = try typeOnce(index: IndexPath(path: indexPath, root: root))
      catalogTimes.append(round.catalog)
      catalogBytes = round.catalogBytes
      keyTimes += round.keys
      selectTimes.append(round.select)
      selected = round.selected
      cancelled += round.unseen
      jsonTimes.append(try timeJSON(round.picks, index: LibraryIndex(path: indexPath)))
    }
    let keys = Percentiles(keyTimes)
    let select = Percentiles(selectTimes)
    let output = Percentiles(jsonTimes)
    let catalog = Percentiles(catalogTimes)
    if json {
      print(
        "{\"rows\":\(synthetic),\"catalog_median_ms\":\(catalog.p50),\"catalog_bytes\":\(catalogBytes),\"keys\":\(keyTimes.count),\"key_p50_ms\":\(keys.p50),\"key_p99_ms\":\(keys.p99),"
          + "\"key_max_ms\":\(keys.max),\"select_all_median_ms\":\(select.p50),\"selected\":\(selected),"
          + "\"json_median_ms\":\(output.p50),\"queries_never_shown\":\(cancelled)}")
      return
    }
    print(
      "rows:                     \(synthetic) (made up), query \"\(query)\" at \(interval == 0 ? "each key after the last one's results" : "\(interval) ms a key")"
    )
    print(
      "search catalog read:      median \(catalog.text(catalog.p50)) ms (in the background, waited for before typing),"
        + " \(catalogBytes / synthetic) bytes a row")
    print(
      "key → results on screen:  p50 \(keys.text(keys.p50)) ms, p99 \(keys.text(keys.p99)) ms, max \(keys.text(keys.max)) ms over \(keyTimes.count) keys"
    )
    if interval > 0 {
      print("queries overtaken:        \(cancelled) of \(keyTimes.count + cancelled) (a newer key came first)")
    }
    print(
      "a → \(selected) selected:    median \(select.text(select.p50)) ms, max \(select.text(select.max)) ms over \(selectTimes.count) runs"
    )
    print("--format json, \(selected):  median \(output.text(output.p50)) ms, max \(output.text(output.max)) ms")
  }

  struct IndexPath {
    var path: String
    var root: PathBytes
  }

  /// One round: the query typed into a fresh picker, Enter, `a`.
  private func typeOnce(index: IndexPath) throws -> (
    keys: [Double], select: Double, selected: Int, picks: [PickedItem], unseen: Int, catalog: Double,
    catalogBytes: Int
  ) {
    let source = TimelineSource(index: LibraryIndex(path: index.path), roots: [index.root])
    // The catalog is read in the background once the timeline shows; a
    // person takes longer than that to press `/` on a small library.
    let reading = DispatchTime.now().uptimeNanoseconds
    source.prepareSearch()
    while !source.isSearchCatalogReady { usleep(1_000) }
    let catalogTime = Double(DispatchTime.now().uptimeNanoseconds - reading) / 1e6
    let catalogBytes = source.searchCatalogBytes ?? 0
    let terminal = TimedTerminal(size: TerminalSize(width: 120, height: 40))
    let loop = BenchCache.loop(
      sources: [source], options: AppOptions(colorDepth: .truecolor), terminal: terminal, pipeline: nil)
    let letters = Array(query)
    var typed = 0
    var dueTimes: [Int: UInt64] = [:]
    var keyTimes: [Double] = []
    var shownPrefixes = Set<Int>()
    var selectDue: UInt64?
    var selectTime = 0.0
    var selected = 0
    var picks: [PickedItem] = []
    func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    func send(_ key: Key, at due: UInt64) { terminal.schedule(key, at: due) }
    loop.onFrame = { state in
      guard let scope = state.scope, scope.hasLoadedOnce else { return false }
      if typed == 0 {
        // The timeline is up: `/`, then the letters.
        typed = -1
        send(.char("/"), at: now())
        let start = now()
        for (offset, letter) in letters.enumerated() where interval > 0 || offset == 0 {
          let due = start + UInt64(offset * max(interval, 0)) * 1_000_000 + 1_000_000
          dueTimes[offset + 1] = due
          send(.char(letter), at: due)
        }
        return false
      }
      if let due = selectDue {
        guard state.selection.count > 0, state.notice?.text.contains("selected") == true else { return false }
        selectTime = Double(now() - due) / 1e6
        selected = state.selection.count
        picks = state.selection.photos.map {
          var item = PickedItem(
            sourceID: $0.key.sourceID, itemID: $0.key.itemID, titleBytes: $0.title,
            path: { if case .local(let path) = $0.output { path } else { nil } }($0), url: nil)
          item.details = $0.details
          return item
        }
        return true
      }
      // The results of what was typed so far: every prefix sent whose
      // words (a trailing space aside) are those shown, not timed yet.
      guard case .search(let shown, _)? = state.scope?.kind, !scope.isLoading else { return false }
      let now = now()
      let showing = dueTimes.keys.filter {
        !shownPrefixes.contains($0) && dueTimes[$0]! <= now
          && String(letters.prefix($0)).trimmingCharacters(in: .whitespaces) == shown
      }
      guard !showing.isEmpty else { return false }
      for length in showing {
        shownPrefixes.insert(length)
        keyTimes.append(Double(now - dueTimes[length]!) / 1e6)
      }
      let length = showing.max()!
      if length == letters.count {
        send(.enter, at: now)
        let due = now + 20_000_000
        selectDue = due
        send(.char("a"), at: due)
        return false
      }
      if interval == 0 {
        // A trailing space changes no words: its frame is the next one.
        var next = length
        repeat {
          dueTimes[next + 1] = now
          send(.char(letters[next]), at: now)
          next += 1
        } while next < letters.count && letters[next - 1] == " "
      }
      return false
    }
    _ = loop.run()
    guard selectDue != nil, selected > 0 else { throw BenchExit(code: 2, message: "the query's results never showed") }
    return (keyTimes, selectTime, selected, picks, letters.count - shownPrefixes.count, catalogTime, catalogBytes)
  }

  /// The picks printed as `--format json` prints them: the index's
  /// records, then each line (the writing to stdout aside).
  private func timeJSON(_ picks: [PickedItem], index: LibraryIndex) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let lines = PickPrinter.text(of: picks, format: .json, index: index)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    // Checked after the clock: every line has the index's camera.
    guard lines.count == picks.count, lines.allSatisfy({ $0.contains("\"camera\":\"") }) else {
      throw BenchExit(code: 2, message: "the JSON lines lack the index's fields")
    }
    return elapsed
  }
}

/// p50, p99 and max of milliseconds.
struct Percentiles {
  var p50 = 0.0
  var p99 = 0.0
  var max = 0.0

  init(_ values: [Double]) {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return }
    p50 = sorted[sorted.count / 2]
    p99 = sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    max = sorted.last!
  }

  func text(_ value: Double) -> String { String(format: "%.2f", value) }
}

/// A terminal whose keys come at set times, so the loop's own work (a
/// query still running) delays them as it would a person's.
final class TimedTerminal: TerminalBackend {
  private let headless: HeadlessTerminal
  private var scheduled: [(due: UInt64, key: Key)] = []

  init(size: TerminalSize) { headless = HeadlessTerminal(size: size, writer: nil) }

  func schedule(_ key: Key, at due: UInt64) {
    scheduled.append((due, key))
    scheduled.sort { $0.due < $1.due }
  }

  var size: TerminalSize { headless.size }
  var pollDescriptors: [Int32] { [] }
  var inputTimeout: Int32 {
    guard let first = scheduled.first else { return -1 }
    let now = DispatchTime.now().uptimeNanoseconds
    return first.due <= now ? 0 : Int32((first.due - now) / 1_000_000) + 1
  }

  func readInput() -> [AppEvent] {
    let now = DispatchTime.now().uptimeNanoseconds
    let due = scheduled.prefix { $0.due <= now }
    scheduled.removeFirst(due.count)
    return due.map { .key($0.key) }
  }

  func draw(_ screen: Screen) { headless.draw(screen) }
  func close() {}
}
