import Foundation

/// Turns relative paths (raw bytes) into string ids and back, losslessly.
///
/// Valid UTF-8 without '%' stays readable; anything else becomes '%' followed
/// by hex, so a name with invalid UTF-8 still round-trips.
enum IdentifierCoding {
  static func encode(_ bytes: [UInt8]) -> String {
    if !bytes.contains(UInt8(ascii: "%")) {
      // Decoding repairs what is not UTF-8: the same bytes back mean there
      // was nothing to repair. (Faster than validating first: a listing
      // makes one id a photo.)
      let text = String(decoding: bytes, as: UTF8.self)
      if same(text, bytes) { return text }
    }
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = [UInt8(ascii: "%")]
    for byte in bytes {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: hex, as: UTF8.self)
  }

  private static func same(_ text: String, _ bytes: [UInt8]) -> Bool {
    guard text.utf8.count == bytes.count else { return false }
    guard !bytes.isEmpty else { return true }
    return text.utf8.withContiguousStorageIfAvailable { stored in
      bytes.withUnsafeBufferPointer { memcmp(stored.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
    } ?? text.utf8.elementsEqual(bytes)
  }

  static func decode(_ id: String) -> [UInt8] {
    let utf8 = Array(id.utf8)
    guard utf8.first == UInt8(ascii: "%") else { return utf8 }
    var bytes: [UInt8] = []
    var index = 1
    while index + 1 < utf8.count {
      bytes.append(nibble(utf8[index]) << 4 | nibble(utf8[index + 1]))
      index += 2
    }
    return bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8 {
    digit >= UInt8(ascii: "a") ? digit - UInt8(ascii: "a") + 10 : digit - UInt8(ascii: "0")
  }
}
