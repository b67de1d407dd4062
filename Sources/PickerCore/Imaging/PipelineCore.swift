import Foundation

/// The shared state of the pipeline's workers, behind one condition lock.
final class PipelineCore: @unchecked Sendable {
  private final class Job {
    let request: ImageRequest
    let sequence: Int
    /// Fetched over the network: runs on a network worker.
    let usesNetwork: Bool
    var subscribers: [Int: (priority: Int, completion: @Sendable (ThumbnailResult) -> Void)] = [:]
    var isRunning = false
    var priority: Int { subscribers.values.map(\.priority).max() ?? Int.min }

    init(request: ImageRequest, sequence: Int, usesNetwork: Bool) {
      self.request = request
      self.sequence = sequence
      self.usesNetwork = usesNetwork
    }
  }

  private let configuration: ImagePipeline.Configuration
  private let memoryCache: MemoryCache<ImageRequest.Key, Thumbnail>
  private let condition = NSCondition()
  private var jobs: [ImageRequest.Key: Job] = [:]
  /// Jobs waiting for a decoding worker, and for a network worker.
  private var queued: [Job] = []
  private var networkQueued: [Job] = []
  private var nextSequence = 0
  private var nextSubscriber = 0
  private var started = 0
  private var running = 0
  private var workersAlive = 0
  private var stopped = false
  /// Disk cache writes, done when no job is queued.
  private var writes: [() -> Void] = []
  /// About 64 KB of pixels each: a bound of a few MB.
  static let maxDeferredWrites = 64

  init(configuration: ImagePipeline.Configuration, memoryCache: MemoryCache<ImageRequest.Key, Thumbnail>) {
    self.configuration = configuration
    self.memoryCache = memoryCache
  }

  var pendingJobCount: Int { condition.withLock { jobs.count } }
  var startedJobCount: Int { condition.withLock { started } }

  func subscribe(_ request: ImageRequest, completion: @escaping @Sendable (ThumbnailResult) -> Void) -> ImageTask {
    condition.lock()
    defer { condition.unlock() }
    nextSubscriber += 1
    let job: Job
    if let existing = jobs[request.key] {
      job = existing
    } else {
      let usesNetwork = configuration.loaders.first { $0.canHandle(request.key.reference) }?.usesNetwork ?? false
      job = Job(request: request, sequence: nextSequence, usesNetwork: usesNetwork)
      nextSequence += 1
      jobs[request.key] = job
      enqueue(job)
    }
    job.subscribers[nextSubscriber] = (request.priority, completion)
    return ImageTask(core: self, key: request.key, subscriber: nextSubscriber)
  }

  func cancel(_ key: ImageRequest.Key, subscriber: Int) {
    condition.withLock {
      guard let job = jobs[key], job.subscribers.removeValue(forKey: subscriber) != nil else { return }
      guard job.subscribers.isEmpty, !job.isRunning else { return }
      jobs[key] = nil
      queued.removeAll { $0 === job }
      networkQueued.removeAll { $0 === job }
    }
  }

  /// Called with the lock held.
  private func enqueue(_ job: Job) {
    if job.usesNetwork { networkQueued.append(job) } else { queued.append(job) }
    // Workers of both kinds wait on the one condition.
    condition.broadcast()
  }

  func setPriority(_ priority: Int, key: ImageRequest.Key, subscriber: Int) {
    condition.withLock { jobs[key]?.subscribers[subscriber]?.priority = priority }
  }

  func stop() {
    condition.withLock {
      stopped = true
      condition.broadcast()
    }
  }

  /// Drops queued jobs and writes and waits (at most `timeout` seconds) for
  /// the running ones, so no worker is mid-write when the process exits.
  /// Thumbnails not written yet are simply made again next time.
  func shutdown(timeout: Double) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    stopped = true
    queued.removeAll()
    networkQueued.removeAll()
    writes.removeAll()
    condition.broadcast()
    while workersAlive > 0 && condition.wait(until: deadline) {}
  }

  /// Waits until no job is queued or running (benchmarks).
  func waitUntilIdle() {
    condition.lock()
    defer { condition.unlock() }
    while (!queued.isEmpty || !networkQueued.isEmpty || !writes.isEmpty || running > 0) && !stopped {
      condition.wait()
    }
  }

  /// One worker's life: take the most urgent job, make it, hand it out.
  /// Network workers take only jobs that fetch over the network; decoding
  /// workers take the rest and the deferred cache writes.
  func work(network: Bool = false) {
    condition.withLock { workersAlive += 1 }
    defer {
      condition.withLock {
        workersAlive -= 1
        condition.broadcast()
      }
    }
    while let work = nextWork(network: network) {
      guard case .job(let job) = work else {
        if case .write(let write) = work { write() }
        condition.withLock {
          running -= 1
          condition.broadcast()
        }
        continue
      }
      let begin = DispatchTime.now().uptimeNanoseconds
      let (result, path, afterDelivery) = make(job.request.key)
      if case .success(let image)? = result { memoryCache.insert(image, for: job.request.key, cost: image.byteCost) }
      let completions = condition.withLock { () -> [@Sendable (ThumbnailResult) -> Void] in
        if result == nil && !job.subscribers.isEmpty {
          // Given up for want of subscribers, and someone subscribed since:
          // back in the queue, or that subscriber would wait forever.
          job.isRunning = false
          enqueue(job)
          return []
        }
        jobs[job.request.key] = nil
        return job.subscribers.values.map(\.completion)
      }
      if let result { completions.forEach { $0(result) } }
      if let observer = configuration.observer, let path {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
        observer(ImagePipeline.JobReport(key: job.request.key, path: path, seconds: seconds))
      }
      // Disk cache writes wait until no thumbnail is wanted: nobody is
      // waiting for them, and someone may be waiting for the next picture.
      // Each holds its pixels, so past a backlog they are done at once.
      let deferred = condition.withLock { () -> Bool in
        guard let afterDelivery, writes.count < Self.maxDeferredWrites else { return false }
        writes.append(afterDelivery)
        return true
      }
      if !deferred { afterDelivery?() }
      condition.withLock {
        running -= 1
        condition.broadcast()
      }
    }
  }

  private enum Work {
    case job(Job)
    case write(() -> Void)
  }

  /// The most urgent job, else a pending cache write; nil once stopped.
  private func nextWork(network: Bool) -> Work? {
    condition.lock()
    defer { condition.unlock() }
    if network {
      while networkQueued.isEmpty && !stopped { condition.wait() }
      return stopped ? nil : .job(takeMostUrgentJob(from: &networkQueued))
    }
    while queued.isEmpty && writes.isEmpty && !stopped { condition.wait() }
    if stopped { return nil }
    if queued.isEmpty {
      running += 1
      return .write(writes.removeFirst())
    }
    return .job(takeMostUrgentJob(from: &queued))
  }

  private func takeMostUrgentJob(from queue: inout [Job]) -> Job {
    var best = 0
    for index in queue.indices.dropFirst() {
      let a = queue[index]
      let b = queue[best]
      if a.priority > b.priority || (a.priority == b.priority && a.sequence < b.sequence) { best = index }
    }
    let job = queue.remove(at: best)
    job.isRunning = true
    started += 1
    running += 1
    return job
  }

  private func isWanted(_ key: ImageRequest.Key) -> Bool {
    condition.withLock { !(jobs[key]?.subscribers.isEmpty ?? true) }
  }

  /// Makes one thumbnail; nil when nobody wanted it any more before the
  /// expensive part. The closure returned runs after delivery.
  private func make(_ key: ImageRequest.Key) -> (ThumbnailResult?, ImagePipeline.JobReport.Path?, (() -> Void)?) {
    if let image = memoryCache.value(for: key) { return (.success(image), .memoryCache, nil) }
    let box = key.pixelBox
    let flavor: FreedesktopThumbnailCache.Flavor = max(box.width, box.height) <= 128 ? .normal : .large
    // Tiles larger than the cache's largest thumbnails are decoded for
    // themselves, past the disk cache.
    let usesDiskCache = max(box.width, box.height) <= flavor.size
    // The local file's disk cache entry: a thumbnail, or a remembered failure.
    var cacheEntry: FreedesktopThumbnailCache.Entry?
    if case .file(let path) = key.reference, let cache = configuration.diskCache, usesDiskCache {
      let entry: FreedesktopThumbnailCache.Entry
      switch cache.entry(for: path) {
      case .success(let found): entry = found
      case .failure(let error): return (.failure(error), .failed, nil)
      }
      cacheEntry = entry
      if let message = cache.failure(for: entry) {
        return (.failure(ImageDecodingError(message, isContentError: true)), .failed, nil)
      }
      if let image = cache.thumbnail(for: entry, flavor: flavor) {
        return (render(image, key), .diskCache, nil)
      }
    }
    // A remote thumbnail made before: URLs of remote photos are taken to
    // name fixed content, so the entry needs no date check.
    var remoteEntry: FreedesktopThumbnailCache.Entry?
    if case .remote(let source, let url) = key.reference, let cache = configuration.remoteCache, usesDiskCache {
      let entry = FreedesktopThumbnailCache.Entry(uri: "picker-tui-remote:" + source + "\n" + url, mtime: 0)
      if let image = cache.thumbnail(for: entry, flavor: flavor) { return (render(image, key), .diskCache, nil) }
      remoteEntry = entry
    }
    guard isWanted(key) else { return (nil, nil, nil) }
    guard let loader = configuration.loaders.first(where: { $0.canHandle(key.reference) }) else {
      return (.failure(ImageDecodingError("no loader for this image")), .failed, nil)
    }
    do {
      let data = try loader.load(key.reference) { [weak self] in !(self?.isWanted(key) ?? false) }
      // Decoded for the cache's size, but a camera's EXIF thumbnail serves
      // whenever it covers the tile itself.
      let side = usesDiskCache ? flavor.size : max(box.width, box.height)
      let square = PixelSize(width: side, height: side)
      let decoded: DecodedImage
      switch data {
      case .file(let path): decoded = try configuration.decoder.decode(file: path, covering: square, enough: box)
      case .bytes(let bytes): decoded = try configuration.decoder.decode(bytes: bytes, covering: square, enough: box)
      }
      let thumbnail = decoded.image
      thumbnail.shrink(maxWidth: side, maxHeight: side)
      // The cache gets only thumbnails of its full size (or whole small
      // originals): others read from it expect that much.
      let fillsFlavor =
        max(thumbnail.width, thumbnail.height) >= flavor.size
        || max(decoded.sourceSize.width, decoded.sourceSize.height) <= flavor.size
      var store: (() -> Void)?
      if fillsFlavor, let cacheEntry, let cache = configuration.diskCache, case .file(let path) = key.reference {
        store = {
          guard cache.isSettled(path, as: cacheEntry) else { return }
          try? cache.store(thumbnail, for: cacheEntry, flavor: flavor)
        }
      }
      if fillsFlavor, let remoteEntry, let cache = configuration.remoteCache {
        store = { try? cache.store(thumbnail, for: remoteEntry, flavor: flavor) }
      }
      return (render(thumbnail, key), .decoded(embeddedThumbnail: decoded.usedEmbeddedThumbnail), store)
    } catch {
      var remember: (() -> Void)?
      if error.isContentError, let cacheEntry, let cache = configuration.diskCache, case .file(let path) = key.reference
      {
        remember = {
          // A file still being copied looks truncated: remember nothing yet.
          guard cache.isSettled(path, as: cacheEntry) else { return }
          try? cache.storeFailure(error.message, for: cacheEntry)
        }
      }
      return (.failure(error), .failed, remember)
    }
  }

  private func render(_ image: PixelImage, _ key: ImageRequest.Key) -> ThumbnailResult {
    switch key.style {
    case .symbols(let depth):
      guard let cells = CellRenderer.render(image, maxColumns: key.columns, maxRows: key.rows, depth: depth) else {
        return .failure(ImageDecodingError("cannot render image"))
      }
      return .success(.cells(cells))
    case .pixels(let format):
      guard let pixels = PixelRenderer.render(image, maxColumns: key.columns, maxRows: key.rows, format: format) else {
        return .failure(ImageDecodingError("cannot encode image for the terminal"))
      }
      return .success(.pixels(pixels))
    }
  }
}
