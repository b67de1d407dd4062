import Foundation

/// A list of paths that may still be growing (paths piped in on stdin), with
/// duplicates dropped. A reader gets its slice once that many paths have
/// arrived, the list is complete, or, while paths trickle in, after a short
/// wait with what there is: `find` on a slow disk still shows its first
/// results at once.
public final class PathStream: @unchecked Sendable {
  private let lock = NSLock()
  private var paths: [PathBytes] = []
  private var seen = Set<PathBytes>()
  private var finished = false
  /// Folders are left out of the list (a `find` without `-type f` names
  /// its starting folder and every sub-folder; they are not photos).
  private let skipsFolders: Bool
  private var skipped = 0

  public init(paths: [PathBytes] = [], finished: Bool = false, skipsFolders: Bool = false) {
    self.skipsFolders = skipsFolders
    append(contentsOf: paths)
    if finished { finish() }
  }

  public func append(contentsOf newPaths: [PathBytes]) {
    // One stat per path, outside the lock, on the reader's thread.
    let kept = skipsFolders ? newPaths.filter { DirectoryReader.fileKind($0) != .folder } : newPaths
    lock.withLock {
      skipped += newPaths.count - kept.count
      for path in kept where seen.insert(path).inserted { paths.append(path) }
    }
  }

  /// How many folders were left out so far.
  public var skippedFolders: Int { lock.withLock { skipped } }

  /// No more paths will come.
  public func finish() {
    lock.withLock { finished = true }
  }

  /// The paths from `offset`, up to `limit` of them.
  ///
  /// Waits for a full slice or the end of the list; once at least one path
  /// of the slice is there, waits no longer than `patience`.
  public func slice(offset: Int, limit: Int, patience: Duration = .milliseconds(150)) async -> (
    paths: [PathBytes], hasMore: Bool, total: Int?
  ) {
    let needed = offset > Int.max - limit ? Int.max : offset + limit
    let clock = ContinuousClock()
    let start = clock.now
    while true {
      let (count, isFinished) = lock.withLock { (paths.count, finished) }
      if isFinished || count >= needed { break }
      if count > offset && clock.now - start >= patience { break }
      // Polling keeps this simple; it only runs while a page waits for input.
      try? await Task.sleep(for: clock.now - start < .seconds(1) ? .milliseconds(20) : .milliseconds(100))
    }
    return lock.withLock {
      let start = min(offset, paths.count)
      let end = min(needed, paths.count)
      return (Array(paths[start..<end]), end < paths.count || !finished, finished ? paths.count : nil)
    }
  }
}
