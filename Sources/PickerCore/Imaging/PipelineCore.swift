import Foundation

/// The shared state of the pipeline's workers, behind one condition lock:
/// the jobs (one per key, shared by its subscribers), the queues and the
/// workers that take from them. What a job does is in PipelineCore+Steps.
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

  let configuration: ImagePipeline.Configuration
  /// Where thumbnails are kept between runs: local files, remote photos.
  let stores: [any ThumbnailStore]
  let memoryCache: ThumbnailMemory
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
  let wholeImages = MemoryCache<ImageReference, PixelImage>(byteLimit: 400 << 20)
  let wholeImageDecode = NSLock()

  init(configuration: ImagePipeline.Configuration, memoryCache: ThumbnailMemory) {
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
  func tellProgress(_ key: ImageRequest.Key, _ received: Int64, _ expected: Int64?) {
    let listeners = condition.withLock { jobs[key]?.subscribers.values.compactMap(\.progress) ?? [] }
    for listener in listeners { listener(received, expected) }
  }

  func isWanted(_ key: ImageRequest.Key) -> Bool {
    condition.withLock { !(jobs[key]?.subscribers.isEmpty ?? true) }
  }
}
