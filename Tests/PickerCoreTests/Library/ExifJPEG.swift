/// Minimal JPEG files whose header carries EXIF (big-endian TIFF): enough
/// for the library's header reader, which never decodes pixels.
enum ExifJPEG {
  struct Entry {
    var tag: UInt16
    var text: String
    /// Bytes of type UNDEFINED (a MakerNote) instead of the text.
    var raw: [UInt8]? = nil
  }

  /// Apple's MakerNote holding a BurstUUID (tag 0x000B): "Apple iOS", a
  /// version, "MM", then one IFD whose offsets count from the note's start.
  static func appleMakerNote(burstUUID: String) -> [UInt8] {
    let value = Array(burstUUID.utf8) + [0]
    var note: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
    note += be16(1) + be16(0x000B) + be16(2) + be32(value.count) + be32(14 + 2 + 12 + 4) + be32(0)
    return note + value
  }

  static func bytes(
    date: String? = nil, subSeconds: String? = nil, offset: String? = nil, make: String? = nil,
    model: String? = nil, width: Int = 4000, height: Int = 3000, appleBurst: String? = nil
  ) -> [UInt8] {
    var ifd0: [Entry] = []
    if let make { ifd0.append(Entry(tag: 0x010F, text: make)) }
    if let model { ifd0.append(Entry(tag: 0x0110, text: model)) }
    var exif: [Entry] = []
    if let date { exif.append(Entry(tag: 0x9003, text: date)) }
    if let offset { exif.append(Entry(tag: 0x9011, text: offset)) }
    if let subSeconds { exif.append(Entry(tag: 0x9291, text: subSeconds)) }
    if let appleBurst { exif.append(Entry(tag: 0x927C, text: "", raw: appleMakerNote(burstUUID: appleBurst))) }
    let tiff = tiffBytes(ifd0: ifd0, exif: exif)
    let app1 = Array("Exif\0\0".utf8) + tiff
    var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + be16(app1.count + 2) + app1
    // A baseline frame header with the size, three components.
    jpeg += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    jpeg += [0xFF, 0xD9]
    return jpeg
  }

  static func be16(_ n: Int) -> [UInt8] { [UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
  static func be32(_ n: Int) -> [UInt8] { be16(n >> 16) + be16(n & 0xFFFF) }

  /// IFD0 (with a pointer to the Exif IFD when it has entries), then the
  /// Exif IFD, then the strings.
  static func tiffBytes(ifd0: [Entry], exif: [Entry]) -> [UInt8] {
    let ifd0Count = ifd0.count + (exif.isEmpty ? 0 : 1)
    let ifd0Offset = 8
    let exifOffset = ifd0Offset + 2 + ifd0Count * 12 + 4
    var dataOffset = exifOffset + (exif.isEmpty ? 0 : 2 + exif.count * 12 + 4)
    var data: [UInt8] = []
    func entry(_ e: Entry) -> [UInt8] {
      let value = e.raw ?? (Array(e.text.utf8) + [0])
      var bytes = be16(Int(e.tag)) + be16(e.raw == nil ? 2 : 7) + be32(value.count)
      if value.count <= 4 {
        bytes += value + Array(repeating: 0, count: 4 - value.count)
      } else {
        bytes += be32(dataOffset)
        data += value
        dataOffset += value.count
      }
      return bytes
    }
    var out: [UInt8] = Array("MM".utf8) + [0, 42] + be32(ifd0Offset)
    out += be16(ifd0Count)
    for e in ifd0 { out += entry(e) }
    if !exif.isEmpty { out += be16(0x8769) + be16(4) + be32(1) + be32(exifOffset) }
    out += be32(0)
    if !exif.isEmpty {
      out += be16(exif.count)
      for e in exif { out += entry(e) }
      out += be32(0)
    }
    return out + data
  }
}
