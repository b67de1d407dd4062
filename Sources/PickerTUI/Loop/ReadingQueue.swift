import Dispatch
import Foundation
import PickerCore

/// Runs the reads a preview or compare asks for (a file's facts, a photo's
/// sharpness) off the loop's thread, and drops those not begun once the
/// photo is no longer shown: stepping through a hundred photos in the
/// preview reads the headers of the few it stopped on, not of all of them.
/// The loop says after each batch which reads the state still awaits
/// (`PhotoReadings.pending`).
final class ReadingQueue: @unchecked Sendable {
  private let queue: DispatchQueue
  private let lock = NSLock()
  private var wanted: Set<ImageReference> = []

  init(queue: DispatchQueue = .global(qos: .userInitiated)) {
    self.queue = queue
  }

  /// Runs `read` for `reference` unless, when its turn comes, the
  /// reference is no longer wanted.
  func enqueue(_ reference: ImageReference, _ read: @escaping @Sendable () -> Void) {
    // Wanted from now: the loop's next list has it too, as the state has
    // just marked it awaited.
    lock.withLock { _ = wanted.insert(reference) }
    queue.async { [self] in
      guard lock.withLock({ wanted.contains(reference) }) else { return }
      read()
    }
  }

  /// The reads still awaited; any other not begun is dropped.
  func keep(only references: Set<ImageReference>) {
    lock.withLock { wanted = references }
  }
}
