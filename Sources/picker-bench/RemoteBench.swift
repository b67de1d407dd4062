import ArgumentParser
import Foundation
import PickerTUI

/// Remote thumbnails through the real pipeline: a web or WebDAV source's
/// listing, then every photo's thumbnail fetched by the network workers,
/// decoded and rendered, with no thumbnail cache.
struct RemoteBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remote",
    abstract: "Remote thumbnails per second and latency, from a web or WebDAV source.")

  enum Kind: String, ExpressibleByArgument, CaseIterable { case web, webdav, rclone }

  @Argument(help: "The source's URL (the config's url), or for rclone the remote (name:path).")
  var url: String

  @Option(help: "The source's kind: web, webdav or rclone.")
  var kind: Kind = .web

  @Option(help: "WebDAV: user:password for basic auth.")
  var basic: String?

  @Flag(help: "WebDAV and rclone: fetch whole files for thumbnails, not their first bytes (to compare).")
  var wholeFiles = false

  @Option(help: "Photos to thumbnail.")
  var photos = 200

  @Flag(help: "A new connection for every transfer (to compare with connection reuse).")
  var noReuse = false

  @Flag(help: "Print one JSON object.")
  var json = false

  func run() throws {
    HTTPClient.setConnectionReuse(!noReuse)
    let folder = NSTemporaryDirectory() + "/picker-tui-bench-\(getpid())"
    let credentials = CredentialStore(folder: folder)
    let source: any PhotoSource & RemoteImageSource
    var traffic: ThumbnailTraffic?
    switch kind {
    case .web: source = WebSource(title: "Bench", url: url, auth: .none, credentials: credentials)
    case .webdav:
      let made = WebDAVSource(title: "Bench", url: url, auth: basic == nil ? .none : .basic, credentials: credentials)
      if let basic {
        let parts = basic.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ValidationError("--basic must look like user:password") }
        try made.useCredentials(user: parts[0], password: parts[1])
      }
      traffic = made.thumbnailTraffic
      source = made
    case .rclone:
      let made = RcloneSource(title: "Bench", remote: url, log: nil)
      traffic = made.thumbnailTraffic
      source = made
    }
    traffic?.ranged = !wholeFiles
    defer { RcloneDaemon.stopAll() }
    let listingStart = DispatchTime.now().uptimeNanoseconds
    let items = try listPhotos(source)
    let listingMs = Double(DispatchTime.now().uptimeNanoseconds - listingStart) / 1e6
    guard !items.isEmpty else { throw BenchExit(code: 2, message: "no photos at \(url)") }
    var configuration = ImagePipeline.Configuration()
    configuration.loaders = [RemoteImageLoader(sources: [source])]
    let pipeline = ImagePipeline(configuration: configuration)
    let done = DispatchSemaphore(value: 0)
    let arrivals = Arrivals()
    let start = DispatchTime.now().uptimeNanoseconds
    for (index, item) in items.enumerated() {
      let request = ImageRequest(
        reference: item.thumbnail!, columns: 16, rows: 8, depth: .truecolor, priority: items.count - index)
      pipeline.load(request) { result in
        var failed = false
        if case .failure = result { failed = true }
        arrivals.record(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, failed: failed)
        done.signal()
      }
    }
    for _ in items { done.wait() }
    let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    pipeline.shutdown()
    let perSecond = Double(items.count) / total
    let (latencies, failures) = arrivals.snapshot()
    let sorted = latencies.sorted()
    let first40 = sorted[min(39, sorted.count - 1)] * 1000
    // WebDAV and rclone: what thumbnails cost on the wire (-1 for web sources).
    let bytesPerThumbnail = traffic.map { Double($0.bytesReceived) / Double(items.count) } ?? -1
    if json {
      print(
        String(
          format: "{\"photos\":%d,\"per_second\":%.1f,\"first40_ms\":%.1f,\"failures\":%d,\"reuse\":%@,"
            + "\"listing_ms\":%.1f,\"bytes_per_thumbnail\":%.0f}",
          items.count, perSecond, first40, failures, noReuse ? "false" : "true", listingMs, bytesPerThumbnail))
    } else {
      print("photos:        \(items.count) (\(noReuse ? "a connection each" : "connections reused"))")
      print(String(format: "listing:       %.1f ms", listingMs))
      print(String(format: "thumbnails/s:  %.1f", perSecond))
      print(String(format: "first 40:      %.1f ms", first40))
      if bytesPerThumbnail >= 0 { print(String(format: "per thumbnail: %.0f bytes received", bytesPerThumbnail)) }
      print("failures:      \(failures)")
    }
  }

  /// Root photos, page by page, until enough.
  private func listPhotos(_ source: any PhotoSource) throws -> [PhotoItem] {
    let target = photos
    do {
      return try waitFor {
        var found: [PhotoItem] = []
        var offset = 0
        while found.count < target {
          let page = try await source.items(in: nil, page: PageRequest(offset: offset, limit: 100))
          found += page.items.filter { !$0.isFolder && $0.thumbnail != nil }
          offset += page.items.count
          if !page.hasMore || page.items.isEmpty { break }
        }
        return Array(found.prefix(target))
      }
    } catch {
      throw BenchExit(code: 2, message: String(describing: error))
    }
  }
}

/// When each thumbnail arrived, from any worker thread.
private final class Arrivals: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds: [Double] = []
  private var failures = 0

  func record(seconds value: Double, failed: Bool) {
    lock.withLock {
      seconds.append(value)
      if failed { failures += 1 }
    }
  }

  func snapshot() -> ([Double], Int) { lock.withLock { (seconds, failures) } }
}
