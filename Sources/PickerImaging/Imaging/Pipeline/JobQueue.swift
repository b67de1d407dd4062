import Foundation

/// The pipeline's jobs, behind one condition lock: one job per key, shared
/// by its subscribers; the queue of jobs for the decoding workers and the
/// one for the network workers, each taken most urgent first; and the
/// disk cache writes, done when no job waits.
final class JobQueue: @unchecked Sendable {
  final class Job {
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

  /// What a worker takes: a job, or a deferred cache write.
  enum Work {
    case job(Job)
    case write(() -> Void)
  }

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
  /// While the UI works out a frame, jobs queued wake no worker until it is
  /// drawn (`holdWakes`, `releaseWakes`).
  private var holdsWakes = false
  private var wakeHeld = false
  /// Disk cache writes, done when no job is queued.
  private var writes: [() -> Void] = []
  /// About 64 KB of pixels each: a bound of a few MB.
  static let maxDeferredWrites = 64

  var pendingJobCount: Int { condition.withLock { jobs.count } }
  var startedJobCount: Int { condition.withLock { started } }

  /// Adds a subscriber to the key's job, making the job if it is new;
  /// returns the subscriber's number.
  func subscribe(
    _ request: ImageRequest, usesNetwork: @autoclosure () -> Bool, progress: (@Sendable (Int64, Int64?) -> Void)?,
    completion: @escaping @Sendable (ThumbnailResult) -> Void
  ) -> Int {
    condition.lock()
    defer { condition.unlock() }
    nextSubscriber += 1
    let job: Job
    if let existing = jobs[request.key] {
      job = existing
    } else {
      job = Job(request: request, sequence: nextSequence, usesNetwork: usesNetwork())
      nextSequence += 1
      jobs[request.key] = job
      enqueue(job)
    }
    job.subscribers[nextSubscriber] = (request.priority, completion, progress)
    return nextSubscriber
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

  func setPriority(_ priority: Int, key: ImageRequest.Key, subscriber: Int) {
    condition.withLock { jobs[key]?.subscribers[subscriber]?.priority = priority }
  }

  /// Called with the lock held.
  private func enqueue(_ job: Job) {
    if job.usesNetwork { networkQueued.append(job) } else { queued.append(job) }
    if holdsWakes {
      wakeHeld = true
      return
    }
    // Workers of both kinds wait on the one condition.
    condition.broadcast()
  }

  /// Jobs queued from now on wake no idle worker until `releaseWakes`. A
  /// worker woken while the UI thread works out a frame takes a core from
  /// it there and then: on two cores the key's frame waited 3-5 ms behind
  /// the wakes of its own thumbnail requests. Busy workers still take the
  /// new jobs as they finish theirs (and the broadcast of a job done wakes
  /// the idle ones too: held wakes spare a frame the wakes it would cause,
  /// not every wake).
  func holdWakes() { condition.withLock { holdsWakes = true } }

  /// Wakes the workers for the jobs queued since `holdWakes`.
  func releaseWakes() {
    condition.withLock {
      holdsWakes = false
      if wakeHeld {
        wakeHeld = false
        condition.broadcast()
      }
    }
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

  /// A worker starts, or ends (shutdown waits for the running ones).
  func workerStarted() { condition.withLock { workersAlive += 1 } }
  func workerEnded() {
    condition.withLock {
      workersAlive -= 1
      condition.broadcast()
    }
  }

  /// The most urgent job, else a pending cache write; nil once stopped.
  /// Network workers take only jobs that fetch over the network.
  func next(network: Bool) -> Work? {
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

  /// The job is made: its subscribers' completions, to call with the
  /// result. Given up (nil result) for want of subscribers while someone
  /// subscribed since: back in the queue, or that subscriber would wait
  /// forever.
  func finish(_ job: Job, made: Bool) -> [@Sendable (ThumbnailResult) -> Void] {
    condition.withLock {
      if !made && !job.subscribers.isEmpty {
        job.isRunning = false
        enqueue(job)
        return []
      }
      jobs[job.request.key] = nil
      return job.subscribers.values.map(\.completion)
    }
  }

  /// Keeps a disk cache write for when no job waits; false past the
  /// backlog's bound (the caller writes at once).
  func deferWrite(_ write: @escaping () -> Void) -> Bool {
    condition.withLock {
      guard writes.count < Self.maxDeferredWrites else { return false }
      writes.append(write)
      return true
    }
  }

  /// A job or a write taken by `next` is done.
  func workDone() {
    condition.withLock {
      running -= 1
      condition.broadcast()
    }
  }

  /// Who listens to a fetch's progress.
  func progressListeners(_ key: ImageRequest.Key) -> [@Sendable (Int64, Int64?) -> Void] {
    condition.withLock { jobs[key]?.subscribers.values.compactMap(\.progress) ?? [] }
  }

  func isWanted(_ key: ImageRequest.Key) -> Bool {
    condition.withLock { !(jobs[key]?.subscribers.isEmpty ?? true) }
  }
}
