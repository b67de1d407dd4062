import ArgumentParser
import Foundation
import PickerTUI

/// The thumbnail pipeline, headless, on every photo of a folder: the same
/// decoders, caches, workers and cell rendering as the picker.
struct ThumbnailsBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "thumbnails",
    abstract: "Thumbnails per second, latency, time to the first 40, peak memory.")

  @Argument(help: "The folder whose photos are thumbnailed.")
  var folder: String

  @Option(help: "Cells per thumbnail, as WxH.")
  var cells = "16x8"

  @Flag(help: "Start with an empty thumbnail cache (default: a private cache filled by a first pass).")
  var cold = false

  @Flag(help: "No disk cache at all: the decode and render path alone (implies --cold).")
  var noDiskCache = false

  @Option(help: "Colours to render for: none, 8, 16, 256 or truecolor.")
  var colors: ColorDepth = .truecolor

  @Flag(help: "Print one JSON object.")
  var json = false

  @Option(name: .customLong("protocol"), help: "Pixel thumbnails for kitty, sixel or iterm2 (see also bench pixels).")
  var graphics: GraphicsProtocol?

  @Option(help: "With --protocol: one cell in pixels, as WxH.")
  var cellSize = "8x17"

  func run() throws {
    let size = cells.split(separator: "x").compactMap { Int($0) }
    guard size.count == 2, size[0] > 0, size[1] > 0 else {
      throw ValidationError("--cells must look like 16x8")
    }
    let paths = try photoPaths()
    guard !paths.isEmpty else { throw BenchExit(code: 2, message: "no photos in \(folder)") }
    let cacheRoot = BenchCache.makeRoot()
    defer { BenchCache.remove(cacheRoot) }
    let cache = noDiskCache ? nil : FreedesktopThumbnailCache(root: cacheRoot)
    if !cold && !noDiskCache {
      // Warm: the cache holds every thumbnail before the measured pass.
      _ = measure(paths, columns: size[0], rows: size[1], cache: cache)
    }
    let result = measure(paths, columns: size[0], rows: size[1], cache: cache)
    let peakMB = Double(FirstPaintBench.peakResidentKilobytes()) / 1024
    let sorted = result.latencies.sorted()
    func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
    let perSecond = Double(paths.count) / result.seconds
    if json {
      print(
        String(
          format:
            "{\"files\":%d,\"per_second\":%.1f,\"p50_ms\":%.3f,\"p95_ms\":%.3f,\"first40_ms\":%.2f,\"peak_rss_mb\":%.1f,"
            + "\"per_second_with_cache_writes\":%.1f,"
            + "\"embedded_thumbnails\":%d,\"disk_cache_hits\":%d,\"failures\":%d,\"page_bytes\":%d,"
            + "\"failed_files\":",
          paths.count, perSecond, percentile(0.5), percentile(0.95), result.first40 * 1000, peakMB,
          Double(paths.count) / result.secondsWithWrites, result.embedded, result.diskHits, result.failures,
          result.pageBytes) + Self.json(result.failedFiles) + "}")
    } else {
      let mode = noDiskCache ? "no disk cache" : cold ? "cold thumbnail cache" : "warm thumbnail cache"
      print("files:              \(paths.count) (\(mode), \(cells) cells)")
      print(String(format: "thumbnails/s:       %.1f", perSecond))
      print(
        String(
          format: "with cache writes:  %.1f/s (writes wait until no thumbnail is wanted)",
          Double(paths.count) / result.secondsWithWrites))
      print(String(format: "per thumbnail:      p50 %.2f ms, p95 %.2f ms", percentile(0.5), percentile(0.95)))
      print(String(format: "first 40:           %.1f ms", result.first40 * 1000))
      print(
        "paths:              \(result.embedded) EXIF/HEIF thumbnails, \(result.diskHits) from cache, \(result.failures) failed"
      )
      print(String(format: "peak RSS:           %.1f MB", peakMB))
      if let graphics { print("page of 40:         \(result.pageBytes) bytes of \(graphics.rawValue) images") }
      // Which files failed and why: a bench figure over files that did not
      // decode would flatter the decoder.
      for failed in result.failedFiles { print("failed:             \(failed.path): \(failed.error)") }
    }
  }

  struct FailedFile: Encodable {
    var path: String
    var error: String
  }

  private struct Measurement {
    var seconds: Double
    var first40: Double
    var latencies: [Double]
    var secondsWithWrites: Double
    var pageBytes: Int
    var failedFiles: [FailedFile]
    var embedded = 0
    var diskHits = 0
    var failures = 0
  }

  /// Collects job reports from the workers.
  private final class Collector: @unchecked Sendable {
    let lock = NSLock()
    var reports: [ImagePipeline.JobReport] = []
    var finishTimes: [ImageRequest.Key: UInt64] = [:]
    var pageBytes = 0
    /// Each file that could not be thumbnailed, with the error a tile shows.
    var failedFiles: [FailedFile] = []
    let done = DispatchSemaphore(value: 0)
  }

  /// One pass: every photo asked for at once, in folder order and priority,
  /// as a screen and its prefetch would ask; timed until the last arrives.
  private func measure(_ paths: [PathBytes], columns: Int, rows: Int, cache: FreedesktopThumbnailCache?)
    -> Measurement
  {
    let collector = Collector()
    var configuration = ImagePipeline.Configuration()
    // As in the picker, memory cache included (its size counts in the RSS).
    configuration.diskCache = cache
    configuration.observer = { report in
      collector.lock.withLock {
        collector.reports.append(report)
        collector.finishTimes[report.key] = DispatchTime.now().uptimeNanoseconds
      }
    }
    let pipeline = ImagePipeline(configuration: configuration)
    var style = ThumbnailStyle.symbols(colors)
    if let graphics, let cell = try? PixelsBench.size(cellSize, "--cell-size") {
      style = .pixels(PixelFormat(graphics: graphics, cellSize: PixelSize(width: cell.width, height: cell.height)))
    }
    let requests = paths.enumerated().map { index, path in
      ImageRequest(
        key: ImageRequest.Key(reference: .file(path), columns: columns, rows: rows, style: style),
        priority: paths.count - index)
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let remaining = Counter(requests.count)
    for (index, request) in requests.enumerated() {
      pipeline.load(request) { result in
        // The escape bytes of the first page of 40 (the images' own bytes).
        if index < 40, case .success(.pixels(let image)) = result {
          collector.lock.withLock { collector.pageBytes += image.payload.count }
        }
        if case .failure(let error) = result {
          let failed = FailedFile(path: paths[index].lossyString, error: error.message)
          collector.lock.withLock { collector.failedFiles.append(failed) }
        }
        if remaining.decrement() == 0 { collector.done.signal() }
      }
    }
    collector.done.wait()
    let end = DispatchTime.now().uptimeNanoseconds
    // Reports come after delivery; wait for the last ones.
    while collector.lock.withLock({ collector.reports.count }) < requests.count { usleep(1000) }
    // The disk cache writes, which wait until no thumbnail is wanted.
    pipeline.waitUntilIdle()
    let idle = DispatchTime.now().uptimeNanoseconds
    return collector.lock.withLock {
      let first = requests.prefix(40).compactMap { collector.finishTimes[$0.key] }.max() ?? end
      var result = Measurement(
        seconds: Double(end - start) / 1e9, first40: Double(first - start) / 1e9,
        latencies: collector.reports.map(\.seconds), secondsWithWrites: Double(idle - start) / 1e9,
        pageBytes: collector.pageBytes,
        failedFiles: collector.failedFiles.sorted { $0.path < $1.path })
      for report in collector.reports {
        switch report.path {
        case .decoded(embeddedThumbnail: true): result.embedded += 1
        case .diskCache: result.diskHits += 1
        case .failed: result.failures += 1
        default: break
        }
      }
      return result
    }
  }

  private static func json(_ files: [FailedFile]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(files)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
  }

  private func photoPaths() throws -> [PathBytes] {
    let root = PathBytes(folder)
    let source = FolderSource(root: root)
    let box = Box<[PathBytes]>([])
    let semaphore = DispatchSemaphore(value: 0)
    Task {
      var paths: [PathBytes] = []
      var offset = 0
      while true {
        guard let page = try? await source.items(in: nil, page: PageRequest(offset: offset, limit: 5000)) else { break }
        paths += page.items.compactMap { $0.isFolder ? nil : $0.outputPath }
        offset += page.items.count
        if !page.hasMore || page.items.isEmpty { break }
      }
      box.value = paths
      semaphore.signal()
    }
    semaphore.wait()
    return box.value
  }
}

/// A private thumbnail cache for a benchmark, never the user's.
enum BenchCache {
  static func makeRoot() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("picker-tui-bench-\(getpid())/thumbnails").path
  }

  static func remove(_ root: String) {
    try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent)
  }

  /// The real pipeline with a private freedesktop cache at `root`.
  static func pipeline(root: String, workers: Int? = nil) -> ImagePipeline {
    var configuration = ImagePipeline.Configuration()
    configuration.diskCache = FreedesktopThumbnailCache(root: root)
    if let workers { configuration.workerCount = max(1, workers) }
    return ImagePipeline(configuration: configuration)
  }

  /// The picker's own loop over `sources`, drawn into a bench terminal.
  static func loop(
    sources: [any PhotoSource], options: AppOptions, terminal: TerminalBackend, pipeline: ImagePipeline?
  ) -> EventLoop {
    EventLoop(
      state: AppState(sources: sources.map(SourceSummary.init), options: options, size: terminal.size),
      terminal: terminal, sources: sources, pipeline: pipeline,
      downloader: Downloader(folder: NSTemporaryDirectory(), sources: []), theme: .colored)
  }
}

/// A count shared by worker threads.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Int
  init(_ value: Int) { self.value = value }
  func decrement() -> Int {
    lock.withLock {
      value -= 1; return value
    }
  }
}

private final class Box<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

extension ColorDepth: ExpressibleByArgument {}
