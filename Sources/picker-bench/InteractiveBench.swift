import ArgumentParser
import Foundation
import PickerTUI

/// Key → frame latency while thumbnails decode behind: key presses (PgDn,
/// arrows, Space, source switches) arrive at a typing pace into the real
/// loop, sources and pipeline, and each is timed from when it was due to
/// the frame that shows it, so a loop busy with other work counts against it.
struct InteractiveBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "interactive", abstract: "Key to frame latency and memory while scrolling, headless.")

  @Argument(help: "The folder to browse (1,000+ photos; it is also opened as a second source).")
  var folder: String

  @Option(help: "Photos to scroll past before stopping.")
  var photos = 5000

  @Option(help: "Milliseconds between two keys (30: a held key's repeat rate).")
  var interval = 30

  @Option(name: .customLong("protocol"), help: "Pixel thumbnails for kitty, sixel or iterm2 (default: symbols).")
  var graphics: GraphicsProtocol?

  @Option(help: "Terminal size in cells, as WxH.")
  var size = "120x40"

  @Option(help: "Decoding threads (default: one a core, as the picker).")
  var workers: Int?

  @Flag(
    help: ArgumentHelp(
      "Rate while scrolling: stars, rejects and labels on the way, their XMP sidecars written.",
      discussion: "The folder's files are hard-linked into a scratch folder first, which the sidecars go into."))
  var rate = false

  @Flag(help: "Print one JSON object.")
  var json = false

  /// A round with a verdict at most photos: each key rates the photo
  /// focused, then the focus moves on (every photo rated once).
  static let ratingRound: [Key] = [
    .alt("3"), .right, .alt("5"), .right, .char("X"), .right, .alt("6"), .down, .alt("1"), .pageDown,
  ]

  /// One round of keys; PgDn carries the scrolling, the rest is what a
  /// person does on the way.
  static let round: [Key] = [
    .pageDown, .right, .right, .char(" "), .down, .pageDown, .left, .char(" "), .tab, .right, .tab, .pageDown,
    .up, .pageDown,
  ]

  func run() throws {
    let cells = try PixelsBench.size(size, "--size")
    let scratch = rate ? try RatingScratch(linking: folder) : nil
    defer { scratch?.remove() }
    let root = PathBytes(scratch?.path ?? folder)
    let sources: [any PhotoSource] = [
      FolderSource(root: root, title: "A"), FolderSource(root: root, title: "B", id: "bench-second"),
    ]
    var support = GraphicsSupport()
    support.graphics = graphics
    let terminal = PacedTerminal(size: cells, writer: makeGraphicsWriter(for: support), interval: interval)
    var options = AppOptions(showsThumbnails: true, colorDepth: .truecolor)
    if let graphics {
      options.pixelFormat = PixelFormat(graphics: graphics, cellSize: PixelSize(width: 8, height: 17))
    }
    let cacheRoot = BenchCache.makeRoot()
    defer { BenchCache.remove(cacheRoot) }
    let pipeline = BenchCache.pipeline(root: cacheRoot, workers: workers)
    let loop = BenchCache.loop(sources: sources, options: options, terminal: terminal, pipeline: pipeline)
    var latencies: [Double] = []
    var ratingLatencies: [Double] = []
    /// The photo each rating key was for, and when the key was due.
    var rated: [(path: PathBytes, due: UInt64)] = []
    var lastWasRating = false
    let round = rate ? Self.ratingRound : Self.round
    var step = 0
    var started = false
    let wanted = photos
    loop.onFrame = { state in
      guard let scope = state.grid.scopeStacks.first?.last, scope.hasLoadedOnce else { return false }
      if let due = terminal.takeAnswered() {
        let latency = Double(DispatchTime.now().uptimeNanoseconds - due) / 1e6
        latencies.append(latency)
        if lastWasRating {
          ratingLatencies.append(latency)
          if let path = state.focusedItem?.outputPath, rated.last?.path != path { rated.append((path, due)) }
        }
      }
      if !started {
        started = true
        terminal.start()
      }
      let scrolled = state.grid.activeSource == 0 ? scope.focus : 0
      if scrolled >= wanted || (!scope.offersMore && scope.focus >= scope.cellCount - 1) { return true }
      if terminal.isIdle {
        let key = round[step % round.count]
        terminal.queue(key)
        lastWasRating = rate && key != .right && key != .down && key != .pageDown
        step += 1
      }
      return false
    }
    _ = loop.run()
    let endRSS = Double(ScrollBench.residentKilobytes()) / 1024
    pipeline.shutdown()
    report(latencies, scrolled: loop.state.grid.scopeStacks[0].last?.focus ?? 0, endRSS: endRSS)
    if rate { reportRatings(ratingLatencies, onDisk: RatingScratch.onDisk(rated)) }
  }

  /// Rating keys' frames, and how long after each key its sidecar was on
  /// disk (the sidecar's mtime, set by its last write before the fsync and
  /// the rename).
  private func reportRatings(_ frames: [Double], onDisk: [Double]) {
    func percentiles(_ values: [Double]) -> (Double, Double, Double) {
      let sorted = values.sorted()
      guard !sorted.isEmpty else { return (0, 0, 0) }
      func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
      return (at(0.5), at(0.99), sorted.last!)
    }
    let (frame50, frame99, frameMax) = percentiles(frames)
    let (disk50, disk99, diskMax) = percentiles(onDisk)
    if json {
      print(
        String(
          format: "{\"rating_keys\":%d,\"rating_p50_ms\":%.2f,\"rating_p99_ms\":%.2f,\"rating_max_ms\":%.2f,"
            + "\"sidecars\":%d,\"on_disk_p50_ms\":%.2f,\"on_disk_p99_ms\":%.2f,\"on_disk_max_ms\":%.2f}",
          frames.count, frame50, frame99, frameMax, onDisk.count, disk50, disk99, diskMax))
    } else {
      print(
        String(
          format: "rating → frame:  p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d keys)", frame50, frame99, frameMax,
          frames.count))
      print(
        String(
          format: "key → on disk:   p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d sidecars)", disk50, disk99, diskMax,
          onDisk.count))
    }
  }

  private func report(_ latencies: [Double], scrolled: Int, endRSS: Double) {
    let sorted = latencies.sorted()
    func percentile(_ p: Double) -> Double {
      sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
    let peak = Double(FirstPaintBench.peakResidentKilobytes()) / 1024
    let name = graphics?.rawValue ?? "symbols"
    if json {
      print(
        String(
          format: "{\"keys\":%d,\"photos\":%d,\"p50_ms\":%.2f,\"p99_ms\":%.2f,\"max_ms\":%.2f,"
            + "\"rss_end_mb\":%.1f,\"peak_rss_mb\":%.1f,\"thumbnails\":\"%@\"}", sorted.count, scrolled,
          percentile(0.5), percentile(0.99), sorted.last ?? 0, endRSS, peak, name))
    } else {
      print("keys:            \(sorted.count), one every \(interval) ms, \(scrolled) photos scrolled (\(name))")
      print(
        String(
          format: "key → frame:     p50 %.2f ms, p99 %.2f ms, max %.2f ms", percentile(0.5), percentile(0.99),
          sorted.last ?? 0))
      print(String(format: "RSS at the end:  %.1f MB", endRSS))
      print(String(format: "peak RSS:        %.1f MB", peak))
    }
  }
}

/// A headless terminal whose keys become due at a steady pace: a key
/// queued is handed to the loop once its time has come, and the frame drawn
/// after it answers it.
final class PacedTerminal: TerminalBackend {
  private let headless: HeadlessTerminal
  private let interval: UInt64
  private var next: (key: Key, due: UInt64)?
  /// The key handed out and not yet drawn: when it was due.
  private var handedOut: UInt64?
  private var answered: UInt64?
  private var lastDue: UInt64 = 0

  init(size: TerminalSize, writer: GraphicsWriter?, interval: Int) {
    headless = HeadlessTerminal(size: size, writer: writer)
    self.interval = UInt64(max(1, interval)) * 1_000_000
  }

  func start() { lastDue = DispatchTime.now().uptimeNanoseconds }

  /// No key waits and none is on its way to the screen.
  var isIdle: Bool { next == nil && handedOut == nil }

  func queue(_ key: Key) {
    lastDue += interval
    next = (key, max(lastDue, DispatchTime.now().uptimeNanoseconds))
  }

  /// When the key the last frame showed was due, once.
  func takeAnswered() -> UInt64? {
    defer { answered = nil }
    return answered
  }

  var size: TerminalSize { headless.size }
  var pollDescriptors: [Int32] { [] }
  var graphicsBytes: Int { headless.graphicsBytes }

  var inputTimeout: Int32 {
    guard let next else { return -1 }
    let now = DispatchTime.now().uptimeNanoseconds
    return next.due <= now ? 0 : Int32((next.due - now + 999_999) / 1_000_000)
  }

  func readInput() -> [AppEvent] {
    guard let pending = next, pending.due <= DispatchTime.now().uptimeNanoseconds else { return [] }
    next = nil
    handedOut = pending.due
    return [.key(pending.key)]
  }

  func draw(_ screen: Screen) {
    headless.draw(screen)
    if let handedOut {
      answered = handedOut
      self.handedOut = nil
    }
  }

  func close() {}
}
