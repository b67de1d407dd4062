#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Orders names the way people count: IMG_2 before IMG_10, case folded.
///
/// Each name gets a sort key in which plain bytes compare the natural way:
/// ASCII letters are folded, and a run of digits becomes a marker, its length
/// without leading zeros, then the digits. Sorting 100,000 names by packed
/// keys with memcmp is several times faster than comparing names digit run by
/// digit run in every comparison. Equal keys (IMG_02 and IMG_2, a and A) fall
/// back to the raw bytes, so the order is total.
public enum NaturalOrder {
  /// True when `lhs` sorts before `rhs`.
  public static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    compare(lhs, rhs) < 0
  }

  /// -1, 0 or 1, like strcmp.
  public static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    var keyA: [UInt8] = []
    var keyB: [UInt8] = []
    appendKey(of: lhs, to: &keyA)
    appendKey(of: rhs, to: &keyB)
    let byKey = compareBytes(keyA[...], keyB[...])
    return byKey != 0 ? byKey : compareBytes(lhs[...], rhs[...])
  }

  /// The order of `names` as indices, with `groups` (e.g. folder 0, file 1)
  /// sorting before the names.
  public static func sortedIndices(of names: [[UInt8]], groups: [UInt8]) -> [Int] {
    var keys: [UInt8] = []
    keys.reserveCapacity(names.reduce(0) { $0 + $1.count + 4 })
    var bounds: [(start: Int32, end: Int32)] = []
    bounds.reserveCapacity(names.count)
    for (index, name) in names.enumerated() {
      let start = keys.count
      keys.append(groups[index])
      appendKey(of: name, to: &keys)
      bounds.append((Int32(start), Int32(keys.count)))
    }
    var order = Array(names.indices)
    keys.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      order.sort { a, b in
        let (startA, endA) = bounds[a]
        let (startB, endB) = bounds[b]
        let lengthA = Int(endA - startA)
        let lengthB = Int(endB - startB)
        let common = memcmp(base + Int(startA), base + Int(startB), min(lengthA, lengthB))
        if common != 0 { return common < 0 }
        if lengthA != lengthB { return lengthA < lengthB }
        return compareBytes(names[a][...], names[b][...]) < 0
      }
    }
    return order
  }

  /// Digit runs are marked with a byte below every digit but above '/', so
  /// they still sort among other characters where their first digit would.
  static let digitRunMarker: UInt8 = 0x30

  static func appendKey(of name: [UInt8], to key: inout [UInt8]) {
    var index = 0
    let count = name.count
    while index < count {
      let byte = name[index]
      if byte >= 0x30 && byte <= 0x39 {
        while index < count && name[index] == 0x30 { index += 1 }
        var end = index
        while end < count && name[end] >= 0x30 && name[end] <= 0x39 { end += 1 }
        let length = end - index
        key.append(digitRunMarker)
        // Two bytes of length: runs of up to 65,535 significant digits.
        key.append(UInt8(truncatingIfNeeded: min(length, 0xFFFF) >> 8))
        key.append(UInt8(truncatingIfNeeded: min(length, 0xFFFF)))
        key.append(contentsOf: name[index..<end])
        index = end
      } else {
        key.append(byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte)
        index += 1
      }
    }
  }

  private static func compareBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
    for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }
}
