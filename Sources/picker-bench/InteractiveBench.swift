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

  @Flag(help: "Print one JSON object.")
  var json = false

  /// One round of keys; PgDn carries the scrolling, the rest is what a
  /// person does on the way.
  static let round: [Key] = [
    .pageDown, .right, .right, .char(" "), .down, .pageDown, .left, .char(" "), .tab, .right, .tab, .pageDown,
    .up, .pageDown,
  ]

  func run() throws {
    let cells = try PixelsBench.size(size, "--size")
    let root = PathBytes(folder)
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
    var step = 0
    var started = false
    let wanted = photos
    loop.onFrame = { state in
      guard let scope = state.grid.scopeStacks.first?.last, scope.hasLoadedOnce else { return false }
      if let due = terminal.takeAnswered() {
        latencies.append(Double(DispatchTime.now().uptimeNanoseconds - due) / 1e6)
      }
      if !started {
        started = true
        terminal.start()
      }
      let scrolled = state.grid.activeSource == 0 ? scope.focus : 0
      if scrolled >= wanted || (!scope.offersMore && scope.focus >= scope.cellCount - 1) { return true }
      if terminal.isIdle {
        terminal.queue(Self.round[step % Self.round.count])
        step += 1
      }
      return false
    }
    _ = loop.run()
    let endRSS = Double(ScrollBench.residentKilobytes()) / 1024
    pipeline.shutdown()
    report(latencies, scrolled: loop.state.grid.scopeStacks[0].last?.focus ?? 0, endRSS: endRSS)
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
