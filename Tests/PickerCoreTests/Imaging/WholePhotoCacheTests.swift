import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The loupe's whole photos: two photos decode side by side (no lock held
/// while decoding), two views of one photo decode it once, and a failed
/// decode lets the next view try again.
@Suite struct WholePhotoCacheTests {
  static func image() -> PixelImage { PixelImage(width: 2, height: 2, rgba: Array(repeating: 255, count: 16)) }

  /// Counts decodes running at once, holding each until `waitingFor` have begun
  /// (or ten seconds have passed: a loaded machine starts threads late).
  final class Overlap: @unchecked Sendable {
    let lock = NSCondition()
    var running = 0
    var most = 0
    var started = 0
    let waitingFor: Int
    init(waitingFor: Int) { self.waitingFor = waitingFor }

    func decode() -> PixelImage {
      lock.lock()
      running += 1
      started += 1
      most = max(most, running)
      lock.broadcast()
      let deadline = Date().addingTimeInterval(10)
      while started < waitingFor && lock.wait(until: deadline) {}
      lock.unlock()
      Thread.sleep(forTimeInterval: 0.05)
      lock.withLock { running -= 1 }
      return WholePhotoCacheTests.image()
    }
  }

  /// Runs each body on a thread of its own and waits for all. Not a task
  /// group: the decodes block, and the test pool's few threads may all be
  /// busy with other suites, which would run the two one after the other.
  static func onThreads<T: Sendable>(_ bodies: [@Sendable () -> T]) -> [T] {
    let results = NSCondition()
    nonisolated(unsafe) var collected: [T] = []
    for body in bodies {
      Thread.detachNewThread {
        let result = body()
        results.withLock {
          collected.append(result)
          results.broadcast()
        }
      }
    }
    results.lock()
    while collected.count < bodies.count { results.wait() }
    results.unlock()
    return collected
  }

  @Test func twoPhotosDecodeSideBySide() {
    let cache = WholePhotoCache()
    let overlap = Overlap(waitingFor: 2)
    _ = Self.onThreads(
      ["a.jpg", "b.jpg"].map { name in
        { @Sendable in
          _ = try? cache.photo(.file(PathBytes(name))) { () throws(ImageDecodingError) in overlap.decode() }
        }
      })
    #expect(overlap.most == 2, "the second photo's decode did not run beside the first")
  }

  @Test func twoViewsOfOnePhotoDecodeItOnce() {
    let cache = WholePhotoCache()
    // The second view either waits for the first decode or finds its result.
    let overlap = Overlap(waitingFor: 1)
    let decodedFlags = Self.onThreads(
      (0..<2).map { _ in
        { @Sendable in
          (try? cache.photo(.file(PathBytes("a.jpg"))) { () throws(ImageDecodingError) in overlap.decode() })?.decoded
            ?? false
        }
      })
    #expect(overlap.started == 1 && decodedFlags.filter { $0 }.count == 1)
  }

  @Test func aFailedDecodeIsTriedAgain() throws {
    let cache = WholePhotoCache()
    let reference = ImageReference.file(PathBytes("bad.jpg"))
    #expect(throws: ImageDecodingError.self) {
      try cache.photo(reference) { () throws(ImageDecodingError) in throw ImageDecodingError("corrupt") }
    }
    let again = try cache.photo(reference) { () throws(ImageDecodingError) in Self.image() }
    #expect(again.decoded)
  }
}
