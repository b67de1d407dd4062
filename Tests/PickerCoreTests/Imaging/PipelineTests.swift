import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A loader for `test:NAME` URLs that counts its loads, remembers their
/// order, and can hold every load at a gate until the test opens it.
final class CountingLoader: ImageLoader, @unchecked Sendable {
  private let lock = NSLock()
  private let gate = DispatchSemaphore(value: 0)
  private var isGated: Bool
  private(set) var order: [String] = []
  let png = ImageEncoder.encode(TestImages.quadrants(32, 24), as: .png)!

  init(gated: Bool = false) { isGated = gated }

  func canHandle(_ reference: ImageReference) -> Bool {
    if case .url(let url) = reference { return url.hasPrefix("test:") }
    return false
  }

  func load(_ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool) throws(ImageDecodingError)
    -> LoadedImageData
  {
    guard case .url(let url) = reference else { throw ImageDecodingError("not a test URL") }
    let mustWait = lock.withLock {
      order.append(String(url.dropFirst(5)))
      return isGated
    }
    if mustWait { gate.wait() }
    return .bytes(png)
  }

  /// Lets the held load and every later one through.
  func open() {
    lock.withLock { isGated = false }
    for _ in 0..<64 { gate.signal() }
  }

  func loads(of name: String) -> Int { lock.withLock { order.filter { $0 == name }.count } }
  var loadOrder: [String] { lock.withLock { order } }
}

/// Collects results delivered on worker threads.
final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var received: [String: [ThumbnailResult]] = [:]

  func record(_ name: String) -> @Sendable (ThumbnailResult) -> Void {
    { result in self.lock.withLock { self.received[name, default: []].append(result) } }
  }

  func count(_ name: String) -> Int { lock.withLock { received[name]?.count ?? 0 } }
  func first(_ name: String) -> ThumbnailResult? { lock.withLock { received[name]?.first } }
}

/// Polls until `condition` holds or ten seconds pass; returns whether it
/// held. Ten: the pipeline's results may wait their turn behind hundreds of
/// tests sharing two cores, and only a failure waits the whole time.
func eventually(_ condition: () -> Bool) -> Bool {
  for _ in 0..<2000 {
    if condition() { return true }
    usleep(5000)
  }
  return condition()
}

func testRequest(_ name: String, priority: Int = 0) -> ImageRequest {
  ImageRequest(reference: .url("test:" + name), columns: 16, rows: 8, depth: .truecolor, priority: priority)
}

@Suite struct PipelineTests {
  func pipeline(_ loader: CountingLoader, workers: Int = 1, memoryBytes: Int = 1 << 20) -> ImagePipeline {
    var configuration = ImagePipeline.Configuration()
    configuration.loaders = [loader]
    configuration.workerCount = workers
    configuration.memoryCacheBytes = memoryBytes
    return ImagePipeline(configuration: configuration)
  }

  @Test func identicalRequestsShareOneLoad() {
    let loader = CountingLoader(gated: true)
    let pipeline = pipeline(loader)
    let results = Results()
    pipeline.load(testRequest("a"), completion: results.record("first"))
    pipeline.load(testRequest("a", priority: 5), completion: results.record("second"))
    loader.open()
    #expect(eventually { results.count("first") == 1 && results.count("second") == 1 })
    #expect(loader.loads(of: "a") == 1)
    #expect(pipeline.startedJobCount == 1)
  }

  @Test func cancellingTheLastSubscriberCancelsTheLoad() {
    let loader = CountingLoader(gated: true)
    let pipeline = pipeline(loader)
    let results = Results()
    // The only worker is held inside "busy"; "b" waits in the queue.
    pipeline.load(testRequest("busy"), completion: results.record("busy"))
    #expect(eventually { loader.loads(of: "busy") == 1 })
    let one = pipeline.load(testRequest("b"), completion: results.record("b1"))
    let two = pipeline.load(testRequest("b"), completion: results.record("b2"))
    one.cancel()
    #expect(pipeline.pendingJobCount == 2, "another subscriber still wants b")
    two.cancel()
    #expect(pipeline.pendingJobCount == 1)
    loader.open()
    #expect(eventually { results.count("busy") == 1 })
    usleep(50_000)
    #expect(loader.loads(of: "b") == 0)
    #expect(results.count("b1") == 0 && results.count("b2") == 0)
  }

  @Test func heldWakesLetAnIdleWorkerSleepUntilTheFrameIsDrawn() {
    let loader = CountingLoader()
    let pipeline = pipeline(loader)
    let results = Results()
    // The one worker does a job, then goes back to waiting for the next.
    pipeline.load(testRequest("first"), completion: results.record("first"))
    #expect(eventually { results.count("first") == 1 })
    usleep(50_000)
    pipeline.holdWorkerWakes()
    pipeline.load(testRequest("held"), completion: results.record("held"))
    usleep(100_000)
    #expect(loader.loads(of: "held") == 0, "no worker woke while the wakes were held")
    pipeline.releaseWorkerWakes()
    #expect(eventually { results.count("held") == 1 })
  }

  @Test func higherPrioritiesRunFirst() {
    let loader = CountingLoader(gated: true)
    let pipeline = pipeline(loader)
    let results = Results()
    pipeline.load(testRequest("busy"), completion: results.record("busy"))
    #expect(eventually { loader.loads(of: "busy") == 1 })
    pipeline.load(testRequest("prefetch", priority: 1), completion: results.record("prefetch"))
    pipeline.load(testRequest("visible", priority: 10), completion: results.record("visible"))
    let raised = pipeline.load(testRequest("raised", priority: 0), completion: results.record("raised"))
    raised.setPriority(20)
    loader.open()
    #expect(eventually { results.count("prefetch") == 1 })
    #expect(loader.loadOrder == ["busy", "raised", "visible", "prefetch"])
  }

  @Test func resultsLandInTheMemoryCache() throws {
    let loader = CountingLoader()
    let pipeline = pipeline(loader, workers: 2)
    let results = Results()
    pipeline.load(testRequest("a"), completion: results.record("a"))
    #expect(eventually { results.count("a") == 1 })
    let cells = try #require(try results.first("a")?.get())
    #expect(cells.columns <= 16 && cells.rows <= 8)
    #expect(pipeline.cachedImage(for: testRequest("a").key) == cells)
  }

  @Test func previewsHaveTheirOwnBudgetAndLeaveTheTilesInMemory() {
    let loader = CountingLoader()
    var configuration = ImagePipeline.Configuration()
    configuration.loaders = [loader]
    configuration.workerCount = 1
    // Room for the tiles only; previews go to a budget of their own.
    configuration.memoryCacheBytes = 64 << 10
    configuration.previewCacheBytes = 4 << 20
    let pipeline = ImagePipeline(configuration: configuration)
    let results = Results()
    for name in ["a", "b", "c"] { pipeline.load(testRequest(name), completion: results.record(name)) }
    #expect(eventually { ["a", "b", "c"].allSatisfy { results.count($0) == 1 } })
    let previews = (1...6).map {
      ImageRequest(reference: .url("test:preview\($0)"), columns: 120, rows: 39, depth: .truecolor)
    }
    for preview in previews { pipeline.load(preview, completion: results.record("p")) }
    #expect(eventually { results.count("p") == previews.count })
    #expect(
      pipeline.memoryCache.previews.totalCost > configuration.memoryCacheBytes,
      "the previews outweigh the tiles' budget")
    for name in ["a", "b", "c"] {
      #expect(pipeline.cachedImage(for: testRequest(name).key) != nil, "tile \(name) pushed out by the previews")
    }
    #expect(pipeline.cachedImage(for: previews[5].key) != nil)
  }

  @Test func demandCancelsWhatLeftTheScreenAndAnswersHitsAtOnce() {
    let loader = CountingLoader(gated: true)
    let pipeline = pipeline(loader)
    let demand = ThumbnailDemand(pipeline: pipeline)
    let delivered = Results()
    _ = demand.want([testRequest("busy")]) { key, result in
      if case .url(let url) = key.reference { delivered.record(url)(result) }
    }
    #expect(eventually { loader.loads(of: "busy") == 1 })
    _ = demand.want([testRequest("busy"), testRequest("gone"), testRequest("kept")]) { key, result in
      if case .url(let url) = key.reference { delivered.record(url)(result) }
    }
    _ = demand.want([testRequest("busy"), testRequest("kept")]) { key, result in
      if case .url(let url) = key.reference { delivered.record(url)(result) }
    }
    #expect(demand.wanted == [testRequest("busy").key, testRequest("kept").key])
    loader.open()
    #expect(eventually { delivered.count("test:kept") == 1 })
    #expect(loader.loads(of: "gone") == 0)
    // Now in memory: asked again, it comes back at once.
    let ready = demand.want([testRequest("kept")]) { _, _ in }
    #expect(ready.map(\.0) == [testRequest("kept").key])
  }

  @Test func memoryCacheStaysWithinItsByteBudget() {
    let cache = MemoryCache<Int, String>(byteLimit: 1000)
    for key in 0..<100 {
      cache.insert("v\(key)", for: key, cost: 70 + key % 30)
      #expect(cache.totalCost <= 1000)
    }
    cache.insert("huge", for: -1, cost: 5000)
    #expect(cache.value(for: -1) == nil, "an entry over the whole budget is not kept")
    // Least recently used goes first: touching 95 keeps it.
    _ = cache.value(for: 95)
    for key in 100..<108 { cache.insert("v\(key)", for: key, cost: 80) }
    #expect(cache.value(for: 95) == "v95")
    #expect(cache.value(for: 96) == nil)
    #expect(cache.totalCost <= 1000)
  }
}
