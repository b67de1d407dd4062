import Foundation

/// The pipeline's workers: each takes the most urgent job from the queue,
/// makes its thumbnail (the steps are in PipelineWorkers+Steps) and hands
/// it to the job's subscribers. The stores, the memory cache and the
/// loupe's whole photos are theirs to use.
final class PipelineWorkers: @unchecked Sendable {
  let configuration: ImagePipeline.Configuration
  /// Where thumbnails are kept between runs: local files, remote photos.
  let stores: [any ThumbnailStore]
  let memoryCache: ThumbnailMemory
  let queue = JobQueue()
  let wholePhotos = WholePhotoCache()

  init(configuration: ImagePipeline.Configuration, memoryCache: ThumbnailMemory) {
    self.configuration = configuration
    self.memoryCache = memoryCache
    var stores: [any ThumbnailStore] = []
    if let cache = configuration.diskCache { stores.append(LocalThumbnailStore(cache: cache)) }
    if let cache = configuration.remoteCache { stores.append(RemoteThumbnailStore(cache: cache)) }
    self.stores = stores
  }

  func subscribe(
    _ request: ImageRequest, progress: (@Sendable (Int64, Int64?) -> Void)? = nil,
    completion: @escaping @Sendable (ThumbnailResult) -> Void
  ) -> ImageTask {
    let subscriber = queue.subscribe(
      request,
      usesNetwork: self.configuration.loaders.first { $0.canHandle(request.key.reference) }?.usesNetwork ?? false,
      progress: progress, completion: completion)
    return ImageTask(queue: queue, key: request.key, subscriber: subscriber)
  }

  /// One worker's life: take the most urgent job, make it, hand it out.
  /// Network workers take only jobs that fetch over the network; decoding
  /// workers take the rest and the deferred cache writes.
  func work(network: Bool = false) {
    queue.workerStarted()
    defer { queue.workerEnded() }
    while let work = queue.next(network: network) {
      defer { queue.workDone() }
      guard case .job(let job) = work else {
        if case .write(let write) = work { write() }
        continue
      }
      let begin = DispatchTime.now().uptimeNanoseconds
      let (result, path, afterDelivery) = make(job.request.key)
      if case .success(let image)? = result { memoryCache.insert(image, for: job.request.key, cost: image.byteCost) }
      let completions = queue.finish(job, made: result != nil)
      if let result { completions.forEach { $0(result) } }
      if let observer = configuration.observer, let path {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
        observer(ImagePipeline.JobReport(key: job.request.key, path: path, seconds: seconds))
      }
      // Disk cache writes wait until no thumbnail is wanted: nobody is
      // waiting for them, and someone may be waiting for the next picture.
      // Each holds its pixels, so past a backlog they are done at once.
      if let afterDelivery, !queue.deferWrite(afterDelivery) { afterDelivery() }
    }
  }

  /// Bytes of a fetch in progress, to the subscribers that listen.
  func tellProgress(_ key: ImageRequest.Key, _ received: Int64, _ expected: Int64?) {
    for listener in queue.progressListeners(key) { listener(received, expected) }
  }

  func isWanted(_ key: ImageRequest.Key) -> Bool { queue.isWanted(key) }
}
