import Foundation

/// A least-recently-used cache bounded by the bytes of what it holds, safe
/// to use from any thread. An entry larger than the whole budget is not kept.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  private struct Entry {
    var key: Key
    var value: Value
    var cost: Int
    var newer: Int?  // towards the most recently used
    var older: Int?
  }

  public let byteLimit: Int
  private let lock = NSLock()
  private var slots: [Entry?] = []
  private var freeSlots: [Int] = []
  private var index: [Key: Int] = [:]
  private var newest: Int?
  private var oldest: Int?
  private var bytes = 0

  public init(byteLimit: Int) { self.byteLimit = byteLimit }

  /// The bytes held now; never above `byteLimit`.
  public var totalCost: Int { lock.withLock { bytes } }
  public var count: Int { lock.withLock { index.count } }

  /// The value, marked as just used.
  public func value(for key: Key) -> Value? {
    lock.withLock {
      guard let slot = index[key] else { return nil }
      unlink(slot)
      linkAsNewest(slot)
      return slots[slot]!.value
    }
  }

  public func insert(_ value: Value, for key: Key, cost: Int) {
    lock.withLock {
      if let slot = index[key] { remove(slot) }
      guard cost <= byteLimit else { return }
      while bytes + cost > byteLimit, let oldest { remove(oldest) }
      let entry = Entry(key: key, value: value, cost: cost)
      let slot: Int
      if let free = freeSlots.popLast() {
        slot = free
        slots[slot] = entry
      } else {
        slot = slots.count
        slots.append(entry)
      }
      index[key] = slot
      bytes += cost
      linkAsNewest(slot)
    }
  }

  public func removeAll() {
    lock.withLock {
      slots.removeAll()
      freeSlots.removeAll()
      index.removeAll()
      newest = nil
      oldest = nil
      bytes = 0
    }
  }

  private func remove(_ slot: Int) {
    unlink(slot)
    let entry = slots[slot]!
    index[entry.key] = nil
    bytes -= entry.cost
    slots[slot] = nil
    freeSlots.append(slot)
  }

  private func unlink(_ slot: Int) {
    let entry = slots[slot]!
    if let newer = entry.newer { slots[newer]!.older = entry.older } else { newest = entry.older }
    if let older = entry.older { slots[older]!.newer = entry.newer } else { oldest = entry.newer }
    slots[slot]!.newer = nil
    slots[slot]!.older = nil
  }

  private func linkAsNewest(_ slot: Int) {
    slots[slot]!.older = newest
    slots[slot]!.newer = nil
    if let newest { slots[newest]!.newer = slot }
    newest = slot
    if oldest == nil { oldest = slot }
  }
}
