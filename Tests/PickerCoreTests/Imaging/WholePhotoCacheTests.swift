import Foundation
import Testing

@testable import PickerCore

/// The loupe's whole photos: two photos decode side by side (no lock held
/// while decoding), two views of one photo decode it once, and a failed
/// decode lets the next view try again.
@Suite struct WholePhotoCacheTests {
  static func image() -> PixelImage { PixelImage(width: 2, height: 2, rgba: Array(repeating: 255, count: 16)) }

  /// Counts decodes running at once, holding each until both have begun
  /// (or a second has passed).
  final class Overlap: @unchecked Sendable {
    let lock = NSCondition()
    var running = 0
    var most = 0
    var started = 0

    func decode() -> PixelImage {
      lock.lock()
      running += 1
      started += 1
      most = max(most, running)
      lock.broadcast()
      let deadline = Date().addingTimeInterval(1)
      while started < 2 && lock.wait(until: deadline) {}
      lock.unlock()
      Thread.sleep(forTimeInterval: 0.05)
      lock.withLock { running -= 1 }
      return WholePhotoCacheTests.image()
    }
  }

  @Test func twoPhotosDecodeSideBySide() async {
    let cache = WholePhotoCache()
    let overlap = Overlap()
    await withTaskGroup(of: Void.self) { group in
      for name in ["a.jpg", "b.jpg"] {
        group.addTask {
          _ = try? cache.photo(.file(PathBytes(name))) { () throws(ImageDecodingError) in overlap.decode() }
        }
      }
    }
    #expect(overlap.most == 2, "the second photo's decode did not wait for the first")
  }

  @Test func twoViewsOfOnePhotoDecodeItOnce() async {
    let cache = WholePhotoCache()
    let overlap = Overlap()
    let decodedFlags = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<2 {
        group.addTask {
          (try? cache.photo(.file(PathBytes("a.jpg"))) { () throws(ImageDecodingError) in overlap.decode() })?.decoded
            ?? false
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
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
