import Foundation

/// The one owner of thumbnail demand: what the screen wants from the
/// pipeline, in what order, and what is in flight. Each call to `want`
/// replaces the whole wish list: new thumbnails are asked for, the ones
/// still wanted get their new priority, and the rest are cancelled (their
/// cells scrolled away or their scope was left). The app keeps only each
/// thumbnail's state; the pipeline keeps the jobs. Used from one thread.
public final class ThumbnailDemand {
  private let pipeline: ImagePipeline
  /// The last wish list, most urgent first; the same list again asks for
  /// nothing.
  private var wishes: [ImageRequest] = []
  /// Asked for and not cancelled, by key.
  private var tasks: [ImageRequest.Key: ImageTask] = [:]

  public init(pipeline: ImagePipeline) { self.pipeline = pipeline }

  /// Thumbnails asked for and not cancelled.
  public var wanted: Set<ImageRequest.Key> { Set(tasks.keys) }

  /// Replaces the wish list. Thumbnails already in memory are returned at
  /// once (so a cell scrolled back into view never flashes its
  /// placeholder); the others arrive later through `deliver`.
  public func want(
    _ requests: [ImageRequest], deliver: @escaping @Sendable (ImageRequest.Key, ThumbnailResult) -> Void,
    progress: (@Sendable (ImageRequest.Key, Int64, Int64?) -> Void)? = nil
  ) -> [(ImageRequest.Key, Thumbnail)] {
    guard requests != wishes else { return [] }
    wishes = requests
    var ready: [(ImageRequest.Key, Thumbnail)] = []
    var next: [ImageRequest.Key: ImageTask] = [:]
    for request in requests where next[request.key] == nil {
      if let image = pipeline.cachedImage(for: request.key) {
        ready.append((request.key, image))
      } else if let task = tasks.removeValue(forKey: request.key) {
        task.setPriority(request.priority)
        next[request.key] = task
      } else {
        let key = request.key
        let told = progress.map { progress in
          let throttle = ProgressThrottle()
          return { @Sendable (received: Int64, expected: Int64?) in
            if throttle.shouldReport() { progress(key, received, expected) }
          }
        }
        next[key] = pipeline.load(request, progress: told) { deliver(key, $0) }
      }
    }
    for task in tasks.values { task.cancel() }
    tasks = next
    return ready
  }
}
