import ArgumentParser
import Foundation
import PickerTUI

/// `picker-bench ...`: measurements of the real code paths, headless.
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "picker-bench",
    abstract: "picker-tui's benchmarks (figures come from here, not from timed tests).",
    subcommands: [
      FirstPaintBench.self, ThumbnailsBench.self, PixelsBench.self, ScrollBench.self, InteractiveBench.self,
      RemoteBench.self, IndexBench.self, LoupeBench.self, CompareBench.self, StacksBench.self, ToolsBench.self,
      SlowTerminalBench.self, PlacesBench.self, ZonesBench.self, FindBench.self,
    ])
}

/// Time from start to the first frame that shows a folder's first page,
/// through the same sources, event loop and view as the picker, drawn into a
/// headless terminal. With --thumbnails N, to the first frame that shows N
/// thumbnails (the real pipeline, with a private empty or warm cache).
struct FirstPaintBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "first-paint", abstract: "Time to the first grid of a folder.")

  @Argument(help: "The folder to open.")
  var folder: String

  @Option(help: "Runs in this process (each with a fresh source).")
  var runs = 5

  @Option(help: "Terminal width in cells.")
  var width = 120

  @Option(help: "Terminal height in cells.")
  var height = 40

  @Flag(help: "Print one JSON object.")
  var json = false

  @Option(help: "Wait for the first N photos' thumbnails (0: the grid alone; 40 need --width 200 --height 60).")
  var thumbnails = 0

  @Flag(help: "With --thumbnails: a thumbnail cache filled by the run before (default: empty).")
  var warm = false

  @Option(name: .customLong("protocol"), help: "With --thumbnails: pixel thumbnails for kitty, sixel or iterm2.")
  var graphics: GraphicsProtocol?

  @Option(help: "With --protocol: one cell in pixels, as WxH.")
  var cellSize = "8x17"

  @Flag(help: "Then press End and time until the last photo's tile is on screen.")
  var end = false

  @Option(help: "With --timeline: instead of End, type : DATE Enter and time until its photo is focused on screen.")
  var goTo: String?

  @Flag(
    help: ArgumentHelp(
      "Time the real binary from exec on a pseudo-terminal: to the first frame, and to --thumbnails N (default 40) kitty images placed, cold and warm cache.",
      discussion: "Needs --width 200 --height 60 for 40 tiles."))
  var exec = false

  @Option(help: "With --exec: a program drawing the same photos to time in turn with it (timg).")
  var compare: String?

  @Flag(help: "The folder is a library: Photos on an index built before the runs (with --exec: from exec).")
  var timeline = false

  @Option(help: "With --timeline: an index of N made-up rows instead of a scan of the folder.")
  var synthetic: Int?

  @Option(
    help:
      "Make the folder first, unless it is there: N empty entries named like camera photos (every 50th a non-photo) and 20 albums."
  )
  var makeEntries: Int?

  func run() throws {
    if let count = makeEntries { try Self.makeFolder(folder, entries: count) }
    if exec && timeline {
      try ExecTimeline(
        library: folder, runs: runs, cells: TerminalSize(width: width, height: height), synthetic: synthetic
      ).run()
      return
    }
    if exec {
      try ExecFirstPaint(
        folder: folder, runs: runs, cells: TerminalSize(width: width, height: height),
        thumbnails: thumbnails > 0 ? thumbnails : 40, compare: compare, json: json
      ).run()
      return
    }
    var times: [Double] = []
    var endTimes: [Double] = []
    var entries = 0
    var graphicsBytes = 0
    let cacheRoot = BenchCache.makeRoot()
    defer { BenchCache.remove(cacheRoot) }
    // --timeline: Photos on an index built once, outside the timings.
    let indexPath = (cacheRoot as NSString).deletingLastPathComponent + "/timeline.sqlite"
    if timeline {
      let index = LibraryIndex(path: indexPath)
      if let synthetic {
        try IndexBench.addSyntheticRows(synthetic, under: PathBytes(folder), to: index)
      } else {
        _ = try index.scan([PathBytes(folder)])
      }
    }
    for _ in 0..<(max(1, runs) + (warm ? 1 : 0)) {
      if !warm { try? FileManager.default.removeItem(atPath: cacheRoot) }
      let started = DispatchTime.now().uptimeNanoseconds
      let source: any PhotoSource =
        timeline
        ? TimelineSource(index: LibraryIndex(path: indexPath), roots: [PathBytes(folder)])
        : FolderSource(root: PathBytes(folder))
      var support = GraphicsSupport()
      support.graphics = graphics
      let terminal = ScriptedTerminal(
        size: TerminalSize(width: width, height: height), writer: makeGraphicsWriter(for: support))
      var options = AppOptions(showsThumbnails: thumbnails > 0, colorDepth: .truecolor)
      if let graphics {
        let cell = try PixelsBench.size(cellSize, "--cell-size")
        options.pixelFormat = PixelFormat(
          graphics: graphics, cellSize: PixelSize(width: cell.width, height: cell.height))
      }
      let pipeline = thumbnails > 0 ? BenchCache.pipeline(root: cacheRoot) : nil
      let loop = BenchCache.loop(sources: [source], options: options, terminal: terminal, pipeline: pipeline)
      var painted = false
      var endPressed: UInt64?
      var endReached: UInt64?
      let wanted = thumbnails
      let pressesEnd = end || goTo != nil
      let typed: [Key] = goTo.map { [.char(":")] + $0.map(Key.char) + [.enter] } ?? [.end]
      let period = goTo.flatMap { DateQuery.parse($0, today: PhotoMetadataReader.latestBelievableDay() - 1) }
      loop.onFrame = { state in
        guard let scope = state.scope, scope.hasLoadedOnce else { return false }
        if let pressed = endPressed {
          if let period {
            // The date's photo (or the nearest older) focused and drawn.
            guard state.isOnGrid, scope.seekItem == nil, let day = state.focusedItem?.taken?.day,
              day <= period.upperBound
            else { return false }
            endReached = DispatchTime.now().uptimeNanoseconds - pressed
            return true
          }
          // The last photo's tile focused and drawn, nothing more to load.
          guard scope.focus == scope.lastItemIndex, !scope.offersMore, !scope.seeksEnd else { return false }
          endReached = DispatchTime.now().uptimeNanoseconds - pressed
          return true
        }
        // The first N photos (all on screen when the terminal is big enough:
        // 40 tiles of 16x8 need 200x60) have their thumbnail or error mark.
        let done = scope.items.prefix(wanted).allSatisfy { item in
          guard let key = state.thumbnailKey(for: item) else { return true }
          return state.thumbnails[key].map { $0 != .loading } ?? false
        }
        if !done { return false }
        painted = true
        entries = scope.total ?? scope.items.count
        if pressesEnd {
          endPressed = DispatchTime.now().uptimeNanoseconds
          terminal.keys = typed
          return false
        }
        return true
      }
      _ = loop.run()
      guard painted else { throw BenchExit(code: 2, message: "the folder showed nothing") }
      if end || goTo != nil {
        guard let endReached else { throw BenchExit(code: 2, message: "End never reached the last photo") }
        endTimes.append(Double(endReached) / 1_000_000)
        times.append(Double(endPressed! - started) / 1_000_000)
      } else {
        times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
      }
      graphicsBytes = terminal.graphicsBytes
      // Work left over (prefetch, cache writes) must not run into the next run.
      pipeline?.waitUntilIdle()
    }
    // The warming run is not a measurement.
    if warm {
      times.removeFirst()
      if !endTimes.isEmpty { endTimes.removeFirst() }
    }
    let endMedian = endTimes.sorted().dropFirst(endTimes.count / 2).first
    let sorted = times.sorted()
    let median = sorted[sorted.count / 2]
    let peakMB = Double(Self.peakResidentKilobytes()) / 1024
    if json {
      let runsList = times.map { String(format: "%.2f", $0) }.joined(separator: ",")
      print(
        "{\"entries\":\(entries),\"runs_ms\":[\(runsList)],\"median_ms\":\(String(format: "%.2f", median)),"
          + "\"min_ms\":\(String(format: "%.2f", sorted[0])),\"peak_rss_mb\":\(String(format: "%.1f", peakMB))"
          + (endMedian.map { ",\"end_median_ms\":\(String(format: "%.2f", $0))" } ?? "") + "}")
    } else {
      print("entries:        \(entries)")
      print(
        "first paint:    median \(String(format: "%.1f", median)) ms, min \(String(format: "%.1f", sorted[0])) ms, max \(String(format: "%.1f", sorted.last!)) ms over \(times.count) runs"
      )
      if let endMedian {
        let sortedEnd = endTimes.sorted()
        print(
          (goTo == nil ? "End → last:     median" : ": \(goTo!) → there: median")
            + " \(String(format: "%.1f", endMedian)) ms, min \(String(format: "%.1f", sortedEnd[0])) ms, max \(String(format: "%.1f", sortedEnd.last!)) ms"
        )
      }
      print("peak RSS:       \(String(format: "%.1f", peakMB)) MB")
      if let graphics { print("graphics bytes: \(graphicsBytes) (\(graphics.rawValue), last run)") }
    }
  }

  static func peakResidentKilobytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
      getrusage(RUSAGE_SELF, &usage)
    #else
      getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    #if canImport(Darwin)
      return usage.ru_maxrss / 1024
    #else
      return usage.ru_maxrss
    #endif
  }
}

extension FirstPaintBench {
  /// A folder of `count` entries for the listing benchmarks: empty files
  /// named like camera photos (every 50th a text file the listing skips)
  /// and 20 albums. Made once: a marker says it is complete.
  static func makeFolder(_ folder: String, entries count: Int) throws {
    let marker = folder + "/.complete-\(count)"
    if FileManager.default.fileExists(atPath: marker) { return }
    try? FileManager.default.removeItem(atPath: folder)
    FileHandle.standardError.write(Data("making \(folder) with \(count) entries…\n".utf8))
    for album in 0..<20 {
      try FileManager.default.createDirectory(atPath: folder + "/Album \(album)", withIntermediateDirectories: true)
    }
    for n in 0..<max(0, count - 20) {
      let name = n % 50 == 0 ? "notes_\(n).txt" : String(format: "IMG_%06d.jpg", n)
      guard FileManager.default.createFile(atPath: folder + "/" + name, contents: nil) else {
        throw BenchExit(code: 2, message: "cannot write in \(folder)")
      }
    }
    _ = FileManager.default.createFile(atPath: marker, contents: nil)
  }
}
