import Dispatch
import Foundation
import PickerCore
import Testing

@testable import PickerTUI

/// The preview's and compare's reads: those whose photo left the screen
/// before their turn are dropped, the others run.
@Suite struct ReadingQueueTests {
  @Test func readsNoLongerWantedWhenTheirTurnComesAreDropped() {
    let queue = DispatchQueue(label: "readings under test")
    queue.suspend()
    let readings = ReadingQueue(queue: queue)
    let ran = LockedList()
    let photos = (1...4).map { ImageReference.file(PathBytes("/p/IMG_\($0).jpg")) }
    for photo in photos { readings.enqueue(photo) { ran.append(photo) } }
    // The user stepped on to the last photo before any read began.
    readings.keep(only: [photos[3]])
    queue.resume()
    queue.sync {}
    #expect(ran.items == [photos[3]])
  }

  @Test func aReadAskedForAfterTheListIsKept() {
    let queue = DispatchQueue(label: "readings under test")
    queue.suspend()
    let readings = ReadingQueue(queue: queue)
    let ran = LockedList()
    let photo = ImageReference.file(PathBytes("/p/IMG_1.jpg"))
    readings.keep(only: [])
    readings.enqueue(photo) { ran.append(photo) }
    queue.resume()
    queue.sync {}
    #expect(ran.items == [photo])
  }
}

private final class LockedList: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [ImageReference] = []
  func append(_ item: ImageReference) { lock.withLock { list.append(item) } }
  var items: [ImageReference] { lock.withLock { list } }
}
