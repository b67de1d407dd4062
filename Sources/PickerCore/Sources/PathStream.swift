import Foundation

/// A list of paths that may still be growing (paths piped in on stdin), with
/// duplicates dropped. Readers wait until the slice they want has arrived or
/// the list is complete, so the first page shows before the input ends.
public final class PathStream: @unchecked Sendable {
  private let lock = NSLock()
  private var paths: [PathBytes] = []
  private var seen = Set<PathBytes>()
  private var finished = false
  private var waiters: [(needed: Int, continuation: CheckedContinuation<Void, Never>)] = []

  public init(paths: [PathBytes] = [], finished: Bool = false) {
    append(contentsOf: paths)
    if finished { finish() }
  }

  public func append(contentsOf newPaths: [PathBytes]) {
    lock.lock()
    for path in newPaths where seen.insert(path).inserted { paths.append(path) }
    let ready = takeReadyWaiters()
    lock.unlock()
    ready.forEach { $0.resume() }
  }

  /// No more paths will come.
  public func finish() {
    lock.lock()
    finished = true
    let ready = takeReadyWaiters()
    lock.unlock()
    ready.forEach { $0.resume() }
  }

  /// The paths from `offset`, up to `limit` of them, once that many have
  /// arrived or the list is complete.
  public func slice(offset: Int, limit: Int) async -> (paths: [PathBytes], hasMore: Bool, total: Int?) {
    let needed = offset + limit
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      lock.lock()
      if finished || paths.count >= needed {
        lock.unlock()
        continuation.resume()
      } else {
        waiters.append((needed, continuation))
        lock.unlock()
      }
    }
    return lock.withLock {
      let start = min(offset, paths.count)
      let end = min(needed, paths.count)
      return (Array(paths[start..<end]), end < paths.count || !finished, finished ? paths.count : nil)
    }
  }

  /// Must be called with the lock held.
  private func takeReadyWaiters() -> [CheckedContinuation<Void, Never>] {
    var ready: [CheckedContinuation<Void, Never>] = []
    waiters.removeAll { waiter in
      guard finished || paths.count >= waiter.needed else { return false }
      ready.append(waiter.continuation)
      return true
    }
    return ready
  }
}
