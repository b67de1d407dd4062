import Foundation

/// Makes thumbnails: memory cache → disk cache → loader chain → decoder →
/// cells → memory cache, on one worker thread per core.
///
/// Identical requests in flight share one job; a job whose last subscriber
/// cancels is dropped (or, already running, its result only goes to the
/// cache); queued jobs run highest priority first. Callers never wait:
/// results arrive through completion handlers, on a worker thread.
public final class ImagePipeline: Sendable {
  public struct Configuration: Sendable {
    public var loaders: [any ImageLoader] = [FileLoader(), DataURLLoader()]
    public var decoder = ImageDecoder()
    /// Read and written for local files; nil turns it off.
    public var diskCache: FreedesktopThumbnailCache? = nil
    /// Grid tiles kept in memory.
    public var memoryCacheBytes = 48 << 20
    /// Previews (and the loupe's and compare's views) kept in memory, apart
    /// from the tiles so that they never push the grid's page out.
    public var previewCacheBytes = 64 << 20
    public var workerCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Fetches in flight at once for remote thumbnails (loaders that say
    /// `usesNetwork`); they wait on servers, not on the CPU.
    public var networkWorkerCount = 4
    /// Thumbnails of remote photos, in the freedesktop layout under
    /// `$XDG_CACHE_HOME/picker-tui/`; nil turns it off.
    public var remoteCache: FreedesktopThumbnailCache? = nil
    /// Told about every job that finishes (benchmarks time them).
    package var observer: (@Sendable (JobReport) -> Void)? = nil

    public init() {}
  }

  /// How one job went, for benchmarks and tests.
  package struct JobReport: Sendable {
    public enum Path: Sendable, Equatable {
      case memoryCache, diskCache, decoded(embeddedThumbnail: Bool), failed
    }
    public var key: ImageRequest.Key
    public var path: Path
    /// From leaving the queue to the result.
    public var seconds: Double
  }

  public let memoryCache: ThumbnailMemory
  private let core: PipelineWorkers

  public init(configuration: Configuration = Configuration()) {
    memoryCache = ThumbnailMemory(
      tileBytes: configuration.memoryCacheBytes, previewBytes: configuration.previewCacheBytes)
    core = PipelineWorkers(configuration: configuration, memoryCache: memoryCache)
    for number in 0..<configuration.workerCount {
      let thread = Thread { [core] in core.work() }
      thread.name = "thumbnails-\(number)"
      thread.stackSize = 1 << 20
      thread.start()
    }
    let fetchesRemotely = configuration.loaders.contains { $0.usesNetwork }
    for number in 0..<(fetchesRemotely ? configuration.networkWorkerCount : 0) {
      let thread = Thread { [core] in core.work(network: true) }
      thread.name = "thumbnails-network-\(number)"
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  deinit { core.queue.stop() }

  /// Drops what is queued and waits up to `timeout` seconds for the jobs
  /// running now (and their cache writes) before the process exits.
  public func shutdown(timeout: Double = 0.5) { core.queue.shutdown(timeout: timeout) }

  /// Between these, thumbnails asked for wake no idle worker: the UI holds
  /// the wakes while it works out a frame and lets them go once it is drawn.
  package func holdWorkerWakes() { core.queue.holdWakes() }
  package func releaseWorkerWakes() { core.queue.releaseWakes() }

  /// Waits until nothing is queued or running.
  package func waitUntilIdle() { core.queue.waitUntilIdle() }

  /// The thumbnail when it is already in memory; never waits.
  public func cachedImage(for key: ImageRequest.Key) -> Thumbnail? { memoryCache.value(for: key) }

  /// Asks for a thumbnail. `completion` runs once, on a worker thread,
  /// unless the task is cancelled first.
  @discardableResult
  public func load(
    _ request: ImageRequest, progress: (@Sendable (Int64, Int64?) -> Void)? = nil,
    completion: @escaping @Sendable (ThumbnailResult) -> Void
  ) -> ImageTask {
    core.subscribe(request, progress: progress, completion: completion)
  }

  /// Jobs queued or running, and jobs ever started (for tests).
  public var pendingJobCount: Int { core.queue.pendingJobCount }
  public var startedJobCount: Int { core.queue.startedJobCount }
}

/// A subscription to one thumbnail; cancel it when the cell leaves the screen.
public final class ImageTask: Sendable {
  private let queue: JobQueue
  let key: ImageRequest.Key
  let subscriber: Int

  init(queue: JobQueue, key: ImageRequest.Key, subscriber: Int) {
    self.queue = queue
    self.key = key
    self.subscriber = subscriber
  }

  /// Stops wanting the result; the job stops when nobody else wants it.
  public func cancel() { queue.cancel(key, subscriber: subscriber) }

  /// Moves the job up or down the queue.
  public func setPriority(_ priority: Int) { queue.setPriority(priority, key: key, subscriber: subscriber) }
}
