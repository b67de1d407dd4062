/// kitty's classic placements: each picture is sent once under an id and
/// then only placed, moved or taken off by that id, so a page seen before
/// costs no image data again. Pictures float above the text, so ncurses'
/// redraws never erase them; every one that leaves the screen is removed.
public final class KittyWriter: GraphicsWriter {
  /// `files`: a terminal on this machine reads pictures from these.
  public init(files: KittyFiles? = nil) { self.files = files }

  private let files: KittyFiles?
  /// The file each picture sent as one was written to, by terminal id: a
  /// picture dropped before it went out leaves its file to delete.
  private var pictureFiles: [UInt32: String] = [:]

  /// Pictures the terminal holds, by content id, in least recently shown
  /// order; past `maxKeptBytes` the oldest not on screen are freed.
  private var kept = LRUIDs(first: 0x50_0000, last: 0xFF_FFFF)
  /// What is on screen: terminal id → top-left cell.
  private var shown: [UInt32: (x: Int, y: Int)] = [:]
  /// kitty keeps at most 320 MB of pictures a screen and silently drops the
  /// oldest past that (those not on screen first); we free ours well before,
  /// or it would drop grid tiles we believe it holds while previews come.
  static let maxKeptBytes = 160 << 20
  /// The deletes of what kitty holds, rebuilt only when that changes.
  private var cleanupBytes: [UInt8]?

  public func prepare(_ screen: inout Screen, fullRedraw: Bool) -> [Int] { [] }

  public func finishUnits(_ screen: Screen, changed: ChangedCells, fullRedraw: Bool) -> [GraphicsUnit] {
    var units: [GraphicsUnit] = []
    if fullRedraw {
      // A full clear (ESC [2J, a screen switch) drops image data in some
      // kitty versions: free ours and send again what is needed.
      for id in kept.allIDs { units.append(GraphicsUnit(bytes: KittyEncoding.delete(id: id))) }
      kept.removeAll()
      shown.removeAll()
      cleanupBytes = nil
    }
    var next: [UInt32: (x: Int, y: Int)] = [:]
    for placement in screen.images {
      let (id, isNew) = kept.id(for: placement.image.id, cost: Self.cost(of: placement.image))
      if isNew {
        units.append(transmitUnit(placement.image, id: id))
        cleanupBytes = nil
      }
      next[id] = (placement.x, placement.y)
      if let old = shown[id], old == (placement.x, placement.y) { continue }
      units.append(
        GraphicsUnit(
          bytes: CursorBytes.at(
            x: placement.x, y: placement.y, KittyEncoding.place(placement.image, id: id, placement: 1)),
          tag: .place(id)))
    }
    for (id, _) in shown where next[id] == nil {
      units.append(GraphicsUnit(bytes: KittyEncoding.removePlacement(id: id, placement: 1)))
    }
    shown = next
    for id in kept.evict(keepingCost: Self.maxKeptBytes, protected: Set(next.keys)) {
      units.append(GraphicsUnit(bytes: KittyEncoding.delete(id: id)))
      cleanupBytes = nil
    }
    return units
  }

  /// A picture's data pauses between two chunks for a frame's text (kitty
  /// goes on loading at the next chunk; only another picture's data may not
  /// come between). When the picker ends, it ends there: an empty last
  /// chunk closes the load (kitty drops the short image), and the id is
  /// freed.
  func transmitUnit(_ image: PixelThumbnail, id: UInt32) -> GraphicsUnit {
    if let files, image.payloadIsRaw, let file = files.store(image.payload) {
      pictureFiles[id] = file
      return GraphicsUnit(bytes: KittyEncoding.transmit(image, id: id, file: file), tag: .transmit(id))
    }
    return GraphicsUnit(
      bytes: KittyEncoding.transmit(image, id: id), tag: .transmit(id), stopAfter: [0x1B, UInt8(ascii: "\\")],
      ending: KittyEncoding.endLoad + KittyEncoding.delete(id: id), pausable: true)
  }

  public func undelivered(_ tags: [GraphicsUnitTag]) {
    for tag in tags {
      switch tag {
      case .transmit(let id):
        if let file = pictureFiles.removeValue(forKey: id) { files?.remove(file) }
        kept.forget(id: id)
        shown[id] = nil
        cleanupBytes = nil
      case .place(let id) where shown[id] != nil:
        // Where it shows now is not known: placed again if it stays,
        // removed if it leaves.
        shown[id] = (-1, -1)
      default: break
      }
    }
  }

  public func clear() -> [UInt8] {
    let out = cleanup
    files?.removeAll()
    pictureFiles.removeAll()
    kept.removeAll()
    shown.removeAll()
    cleanupBytes = nil
    return out
  }

  public var cleanup: [UInt8] {
    if let cleanupBytes { return cleanupBytes }
    // A load paused between two chunks (a crash mid-page) is closed first,
    // or the next picture any program sends would be taken for its rest.
    let bytes =
      [0x1B, UInt8(ascii: "\\")] + KittyEncoding.endLoad + kept.allIDs.sorted().flatMap { KittyEncoding.delete(id: $0) }
    cleanupBytes = bytes
    return bytes
  }

  /// What a picture takes in the terminal: its pixels, decoded.
  static func cost(of image: PixelThumbnail) -> Int { image.pixelSize.width * image.pixelSize.height * 4 }
}

/// Terminal image ids for content ids, handed out from a range and reused
/// least recently used first.
public struct LRUIDs {
  private let first: UInt32
  private let last: UInt32
  private var next: UInt32
  private var byContent: [UInt64: UInt32] = [:]
  private var costs: [UInt64: Int] = [:]
  /// The summed cost of what is held.
  public private(set) var totalCost = 0
  /// Content ids, least recently used first.
  private var order: [UInt64] = []
  private var free: [UInt32] = []

  public init(first: UInt32, last: UInt32) {
    self.first = first
    self.last = last
    self.next = first
  }

  public var count: Int { byContent.count }
  public var allIDs: [UInt32] { Array(byContent.values) }

  /// The id of this content, and whether it is new (must be transmitted).
  /// When the range is used up, the least recently used id is taken over.
  public mutating func id(for content: UInt64, cost: Int = 0, evicted: inout [UInt32]) -> (UInt32, Bool) {
    if let id = byContent[content] {
      if let index = order.lastIndex(of: content) { order.remove(at: index) }
      order.append(content)
      return (id, false)
    }
    let id: UInt32
    if let reused = free.popLast() {
      id = reused
    } else if next <= last {
      id = next
      next += 1
    } else {
      let oldest = order.removeFirst()
      id = byContent.removeValue(forKey: oldest)!
      totalCost -= costs.removeValue(forKey: oldest) ?? 0
      evicted.append(id)
    }
    byContent[content] = id
    costs[content] = cost
    totalCost += cost
    order.append(content)
    return (id, true)
  }

  public mutating func id(for content: UInt64, cost: Int = 0) -> (UInt32, Bool) {
    var ignored: [UInt32] = []
    return id(for: content, cost: cost, evicted: &ignored)
  }

  /// Frees the least recently used ids until the held cost is within
  /// `limit`, except `protected`.
  public mutating func evict(keepingCost limit: Int, protected: Set<UInt32>) -> [UInt32] {
    evict(while: { $0.totalCost > limit }, protected: protected)
  }

  /// Frees the least recently used ids past `limit`, except `protected`.
  public mutating func evict(keeping limit: Int, protected: Set<UInt32>) -> [UInt32] {
    evict(while: { $0.byContent.count > limit }, protected: protected)
  }

  private mutating func evict(while tooMuch: (LRUIDs) -> Bool, protected: Set<UInt32>) -> [UInt32] {
    var freed: [UInt32] = []
    var index = 0
    while tooMuch(self) && index < order.count {
      let content = order[index]
      if let id = byContent[content], !protected.contains(id) {
        byContent[content] = nil
        totalCost -= costs.removeValue(forKey: content) ?? 0
        order.remove(at: index)
        free.append(id)
        freed.append(id)
      } else {
        index += 1
      }
    }
    return freed
  }

  /// Lets go of `id` (its data never arrived); it may be handed out again.
  public mutating func forget(id: UInt32) {
    guard let content = byContent.first(where: { $0.value == id })?.key else { return }
    byContent[content] = nil
    totalCost -= costs.removeValue(forKey: content) ?? 0
    order.removeAll { $0 == content }
    free.append(id)
  }

  public mutating func removeAll() {
    byContent.removeAll()
    costs.removeAll()
    totalCost = 0
    order.removeAll()
    free.removeAll()
    next = first
  }
}
