/// Orders names the way people count: IMG_2 before IMG_10, case folded.
///
/// Works on raw bytes so it never has to decode names, and so that sorting a
/// 100,000-entry folder stays far below a frame.
public enum NaturalOrder {
  /// True when `lhs` sorts before `rhs`.
  public static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    compare(lhs, rhs) < 0
  }

  /// -1, 0 or 1, like strcmp.
  public static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    lhs.withUnsafeBufferPointer { a in
      rhs.withUnsafeBufferPointer { b in compare(a, b) }
    }
  }

  static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
    var i = 0
    var j = 0
    // Decides between names that differ only in leading zeros or case.
    var tieBreak = 0
    while i < a.count && j < b.count {
      let x = a[i]
      let y = b[j]
      if isDigit(x) && isDigit(y) {
        var zerosA = 0
        var zerosB = 0
        while i < a.count && a[i] == UInt8(ascii: "0") {
          i += 1
          zerosA += 1
        }
        while j < b.count && b[j] == UInt8(ascii: "0") {
          j += 1
          zerosB += 1
        }
        var endA = i
        var endB = j
        while endA < a.count && isDigit(a[endA]) { endA += 1 }
        while endB < b.count && isDigit(b[endB]) { endB += 1 }
        let lengthA = endA - i
        let lengthB = endB - j
        if lengthA != lengthB { return lengthA < lengthB ? -1 : 1 }
        while i < endA {
          if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
          i += 1
          j += 1
        }
        if tieBreak == 0 && zerosA != zerosB { tieBreak = zerosA < zerosB ? -1 : 1 }
        continue
      }
      let foldedX = fold(x)
      let foldedY = fold(y)
      if foldedX != foldedY { return foldedX < foldedY ? -1 : 1 }
      if tieBreak == 0 && x != y { tieBreak = x < y ? -1 : 1 }
      i += 1
      j += 1
    }
    let restA = a.count - i
    let restB = b.count - j
    if restA != restB { return restA < restB ? -1 : 1 }
    return tieBreak
  }

  @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  @inline(__always) private static func fold(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }
}
