/// One piece of a frame's picture bytes that the output queue sends or drops
/// whole: a picture sent, a placement, a delete. Image data can take seconds
/// to reach a slow terminal, so the queue sends units as the terminal reads,
/// and a newer frame drops the units the terminal has not begun to read.
public struct GraphicsUnit {
  public var bytes: [UInt8]
  /// Told to the writer when the unit did not arrive whole, so the picture
  /// is sent again if it is still wanted. nil: the unit must arrive (deletes
  /// and removals), and is never dropped.
  public var tag: GraphicsUnitTag?
  /// Where the unit may end early once begun: just after the next
  /// occurrence of this byte sequence. nil: once begun, it is sent whole.
  public var stopAfter: [UInt8]?
  /// Written after an early stop, to leave the terminal as after a whole
  /// unit (the sequence closed, the cursor restored).
  public var ending: [UInt8]
  /// Text and other sequences may go at its stops while it is in progress
  /// (kitty's chunks: each is a sequence of its own), so a new frame pauses
  /// it there instead of ending it; it goes on after the frame's text.
  public var pausable: Bool

  public init(
    bytes: [UInt8], tag: GraphicsUnitTag? = nil, stopAfter: [UInt8]? = nil, ending: [UInt8] = [],
    pausable: Bool = false
  ) {
    self.bytes = bytes
    self.tag = tag
    self.stopAfter = stopAfter
    self.ending = ending
    self.pausable = pausable
  }

  /// The offset after the first occurrence of `stopAfter` that ends at or
  /// beyond `sent`, or nil when the unit must be sent whole.
  func stop(atOrAfter sent: Int) -> Int? {
    guard let pattern = stopAfter, !pattern.isEmpty, sent < bytes.count else { return nil }
    var end = max(sent, pattern.count)
    while end <= bytes.count {
      if bytes[end - 1] == pattern[pattern.count - 1]
        && bytes[(end - pattern.count)..<end].elementsEqual(pattern)
      {
        return end
      }
      end += 1
    }
    return nil
  }
}

/// What a unit carried, for the writer that made it.
public enum GraphicsUnitTag: Hashable {
  /// kitty: the data of terminal image `id`.
  case transmit(UInt32)
  /// kitty: the placement of terminal image `id`.
  case place(UInt32)
  /// sixel and iTerm2: a picture drawn into its cells.
  case inline(ImagePlacement)
}

extension Array where Element == GraphicsUnit {
  /// All the bytes, as a terminal that reads at once would get them.
  public var joinedBytes: [UInt8] { flatMap(\.bytes) }
}
