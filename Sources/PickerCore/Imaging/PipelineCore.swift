import Foundation

/// The shared state of the pipeline's workers, behind one condition lock.
final class PipelineCore: @unchecked Sendable {
  private final class Job {
    let request: ImageRequest
    let sequence: Int
    /// Fetched over the network: runs on a network worker.
    let usesNetwork: Bool
    var subscribers:
      [Int: (
        priority: Int, completion: @Sendable (ThumbnailResult) -> Void,
        progress: (@Sendable (Int64, Int64?) -> Void)?
      )] = [:]
    {
      // Kept, not computed: the queue compares priorities of every waiting
      // job on each take, and a computed max allocated on every compare
      // (with 5,000 photos asked for, most of a worker's time).
      didSet { priority = subscribers.values.reduce(Int.min) { max($0, $1.priority) } }
    }
    var isRunning = false
    private(set) var priority = Int.min

    init(request: ImageRequest, sequence: Int, usesNetwork: Bool) {
      self.request = request
      self.sequence = sequence
      self.usesNetwork = usesNetwork
    }
  }

  private let configuration: ImagePipeline.Configuration
  /// Where thumbnails are kept between runs: local files, remote photos.
  private let stores: [any ThumbnailStore]
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
  /// Photos decoded whole for the loupe: each view (a zoom, a pan) is cut
  /// from one of these instead of decoding again. Bounded in bytes (two
  /// 48 MP photos); decodes of them take turns, so a second view waits
  /// for the first decode instead of repeating it.
  private let wholeImages = MemoryCache<ImageReference, PixelImage>(byteLimit: 400 << 20)
  private let wholeImageDecode = NSLock()

  init(configuration: ImagePipeline.Configuration, memoryCache: MemoryCache<ImageRequest.Key, Thumbnail>) {
    self.configuration = configuration
    self.memoryCache = memoryCache
    var stores: [any ThumbnailStore] = []
    if let cache = configuration.diskCache { stores.append(LocalThumbnailStore(cache: cache)) }
    if let cache = configuration.remoteCache { stores.append(RemoteThumbnailStore(cache: cache)) }
    self.stores = stores
  }

  var pendingJobCount: Int { condition.withLock { jobs.count } }
  var startedJobCount: Int { condition.withLock { started } }

  func subscribe(
    _ request: ImageRequest, progress: (@Sendable (Int64, Int64?) -> Void)? = nil,
    completion: @escaping @Sendable (ThumbnailResult) -> Void
  ) -> ImageTask {
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
    job.subscribers[nextSubscriber] = (request.priority, completion, progress)
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

  /// Bytes of a fetch in progress, to the subscribers that listen.
  private func tellProgress(_ key: ImageRequest.Key, _ received: Int64, _ expected: Int64?) {
    let listeners = condition.withLock { jobs[key]?.subscribers.values.compactMap(\.progress) ?? [] }
    for listener in listeners { listener(received, expected) }
  }

  private func isWanted(_ key: ImageRequest.Key) -> Bool {
    condition.withLock { !(jobs[key]?.subscribers.isEmpty ?? true) }
  }

  /// Makes one thumbnail in three named steps: look it up in a store,
  /// else fetch and decode it, then render it for the terminal. Nil when
  /// nobody wanted it any more before the expensive part. The closure
  /// returned (keeping it in the store) runs after delivery.
  private func make(_ key: ImageRequest.Key) -> (ThumbnailResult?, ImagePipeline.JobReport.Path?, (() -> Void)?) {
    if let image = memoryCache.value(for: key) { return (.success(image), .memoryCache, nil) }
    if let loupe = key.loupe { return makeLoupeView(key, loupe) }
    let box = key.pixelBox
    let flavor: FreedesktopThumbnailCache.Flavor = max(box.width, box.height) <= 128 ? .normal : .large
    // Tiles larger than the cache's largest thumbnails (the preview) are
    // decoded for themselves, past the stores.
    let usesStore = max(box.width, box.height) <= flavor.size
    var slot: StoreSlot?
    if usesStore, let store = stores.first(where: { $0.handles(key.reference) }) {
      switch store.lookup(key.reference, flavor: flavor) {
      case .hit(let image): return (render(image, key), .diskCache, nil)
      case .knownFailure(let error): return (.failure(error), .failed, nil)
      case .miss(let found): slot = found
      }
    }
    guard isWanted(key) else { return (nil, nil, nil) }
    let side = usesStore ? flavor.size : max(box.width, box.height)
    do {
      // With a store: a square of its size. Without (the preview): the box
      // itself, so a portrait photo is not decoded for a width it never gets.
      let need = usesStore ? PixelSize(width: side, height: side) : box
      let decoded = try fetchAndDecode(key, need: need)
      let thumbnail = decoded.image
      thumbnail.shrink(maxWidth: side, maxHeight: side)
      // A store gets only thumbnails of its full size (or whole small
      // originals): others read from it expect that much.
      let fillsFlavor =
        max(thumbnail.width, thumbnail.height) >= flavor.size
        || max(decoded.sourceSize.width, decoded.sourceSize.height) <= flavor.size
      let keep = fillsFlavor ? slot.map { slot in { slot.save(thumbnail) } } : nil
      return (render(thumbnail, key), .decoded(embeddedThumbnail: decoded.usedEmbeddedThumbnail), keep)
    } catch {
      let remember = error.isContentError ? slot?.saveFailure.map { save in { save(error.message) } } : nil
      return (.failure(error), .failed, remember)
    }
  }

  /// The loupe's view: the part of the whole photo on screen, at its
  /// scale. The photo is decoded whole once (at its full size, upright)
  /// and kept; panning and zooming then only cut and scale.
  private func makeLoupeView(_ key: ImageRequest.Key, _ loupe: Loupe) -> (
    ThumbnailResult?, ImagePipeline.JobReport.Path?, (() -> Void)?
  ) {
    guard isWanted(key) else { return (nil, nil, nil) }
    do {
      let whole: PixelImage
      var path = ImagePipeline.JobReport.Path.memoryCache
      wholeImageDecode.lock()
      if let kept = wholeImages.value(for: key.reference) {
        wholeImageDecode.unlock()
        whole = kept
      } else {
        defer { wholeImageDecode.unlock() }
        // A box no photo exceeds: the decoder's own size, no thumbnail.
        let everything = PixelSize(width: 1 << 16, height: 1 << 16)
        whole = try fetchAndDecode(key, need: everything, enough: everything).image
        wholeImages.insert(whole, for: key.reference, cost: whole.byteCount)
        path = .decoded(embeddedThumbnail: false)
      }
      let screen = key.screenPixelBox, box = key.pixelBox
      let (region, drawn) = loupe.visibleRegion(image: PixelSize(width: whole.width, height: whole.height), box: screen)
      // Symbols are drawn from fewer pixels than the screen has.
      let pixels = PixelSize(
        width: max(1, drawn.width * box.width / max(1, screen.width)),
        height: max(1, drawn.height * box.height / max(1, screen.height)))
      return (render(whole.region(region, drawnAt: pixels), key), path, nil)
    } catch {
      return (.failure(error), .failed, nil)
    }
  }

  /// The second step: the loader chain fetches the bytes (or names the
  /// file), the decoder decodes them to cover `need`, though a camera's
  /// EXIF thumbnail serves whenever it covers `enough` (the tile itself).
  private func fetchAndDecode(_ key: ImageRequest.Key, need: PixelSize, enough: PixelSize? = nil)
    throws(ImageDecodingError) -> DecodedImage
  {
    guard let loader = configuration.loaders.first(where: { $0.canHandle(key.reference) }) else {
      throw ImageDecodingError("no loader for this image")
    }
    let data = try loader.load(
      key.reference, isCancelled: { [weak self] in !(self?.isWanted(key) ?? false) },
      progress: { [weak self] received, expected in self?.tellProgress(key, received, expected) })
    switch data {
    case .file(let path):
      return try configuration.decoder.decode(file: path, covering: need, enough: enough ?? key.pixelBox)
    case .bytes(let bytes):
      return try configuration.decoder.decode(bytes: bytes, covering: need, enough: enough ?? key.pixelBox)
    case .head(let bytes): return try configuration.decoder.decode(head: bytes, covering: need)
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
