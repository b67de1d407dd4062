/// Minimal JPEG files whose header carries EXIF (big-endian TIFF): enough
/// for the library's header reader, which never decodes pixels.
enum ExifJPEG {
  struct Entry {
    var tag: UInt16
    var text: String
    /// Bytes of type UNDEFINED (a MakerNote) instead of the text.
    var raw: [UInt8]? = nil
    /// RATIONALs (numerator, denominator) instead of the text.
    var rationals: [(UInt32, UInt32)]? = nil
  }

  /// A GPS IFD's entries for a position: refs, then degrees, minutes and
  /// seconds as rationals (seconds in 1/1000).
  static func gpsEntries(latitude: Double, longitude: Double) -> [Entry] {
    func dms(_ value: Double) -> [(UInt32, UInt32)] {
      let magnitude = abs(value)
      let degrees = magnitude.rounded(.down)
      let minutes = ((magnitude - degrees) * 60).rounded(.down)
      let seconds = ((magnitude - degrees) * 60 - minutes) * 60
      return [(UInt32(degrees), 1), (UInt32(minutes), 1), (UInt32((seconds * 1000).rounded()), 1000)]
    }
    return [
      Entry(tag: 1, text: latitude < 0 ? "S" : "N"), Entry(tag: 2, text: "", rationals: dms(latitude)),
      Entry(tag: 3, text: longitude < 0 ? "W" : "E"), Entry(tag: 4, text: "", rationals: dms(longitude)),
    ]
  }

  /// Apple's MakerNote holding a BurstUUID (tag 0x000B): "Apple iOS", a
  /// version, "MM", then one IFD whose offsets count from the note's start.
  static func appleMakerNote(burstUUID: String) -> [UInt8] { appleMakerNote([(0x000B, burstUUID)]) }

  /// The same with these text entries (0x0011: the content identifier).
  static func appleMakerNote(_ entries: [(tag: Int, text: String)]) -> [UInt8] {
    var note: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8) + be16(entries.count)
    let valuesStart = 14 + 2 + 12 * entries.count + 4
    var values: [UInt8] = []
    for entry in entries {
      let value = Array(entry.text.utf8) + [0]
      note += be16(entry.tag) + be16(2) + be32(value.count) + be32(valuesStart + values.count)
      values += value
    }
    return note + be32(0) + values
  }

  static func bytes(
    date: String? = nil, subSeconds: String? = nil, offset: String? = nil, make: String? = nil,
    model: String? = nil, width: Int = 4000, height: Int = 3000, appleBurst: String? = nil,
    appleContentID: String? = nil,
    position: (latitude: Double, longitude: Double)? = nil
  ) -> [UInt8] {
    var ifd0: [Entry] = []
    if let make { ifd0.append(Entry(tag: 0x010F, text: make)) }
    if let model { ifd0.append(Entry(tag: 0x0110, text: model)) }
    var exif: [Entry] = []
    if let date { exif.append(Entry(tag: 0x9003, text: date)) }
    if let offset { exif.append(Entry(tag: 0x9011, text: offset)) }
    if let subSeconds { exif.append(Entry(tag: 0x9291, text: subSeconds)) }
    let appleEntries = [(0x000B, appleBurst), (0x0011, appleContentID)].compactMap { tag, text in text.map { (tag, $0) }
    }
    if !appleEntries.isEmpty { exif.append(Entry(tag: 0x927C, text: "", raw: appleMakerNote(appleEntries))) }
    let gps = position.map { gpsEntries(latitude: $0.latitude, longitude: $0.longitude) } ?? []
    let tiff = tiffBytes(ifd0: ifd0, exif: exif, gps: gps)
    let app1 = Array("Exif\0\0".utf8) + tiff
    var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + be16(app1.count + 2) + app1
    // A baseline frame header with the size, three components.
    jpeg += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    jpeg += [0xFF, 0xD9]
    return jpeg
  }

  static func be16(_ n: Int) -> [UInt8] { [UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
  static func be32(_ n: Int) -> [UInt8] { be16(n >> 16) + be16(n & 0xFFFF) }

  /// IFD0 (with pointers to the Exif and GPS IFDs when they have
  /// entries), then the Exif IFD, the GPS IFD, then the values.
  static func tiffBytes(ifd0: [Entry], exif: [Entry], gps: [Entry] = []) -> [UInt8] {
    let ifd0Count = ifd0.count + (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1)
    let ifd0Offset = 8
    let exifOffset = ifd0Offset + 2 + ifd0Count * 12 + 4
    let gpsOffset = exifOffset + (exif.isEmpty ? 0 : 2 + exif.count * 12 + 4)
    var dataOffset = gpsOffset + (gps.isEmpty ? 0 : 2 + gps.count * 12 + 4)
    var data: [UInt8] = []
    func entry(_ e: Entry) -> [UInt8] {
      let value =
        e.rationals.map { $0.flatMap { be32(Int($0.0)) + be32(Int($0.1)) } } ?? e.raw ?? (Array(e.text.utf8) + [0])
      let type = e.rationals != nil ? 5 : e.raw != nil ? 7 : 2
      let count = e.rationals?.count ?? value.count
      var bytes = be16(Int(e.tag)) + be16(type) + be32(count)
      if value.count <= 4 {
        bytes += value + Array(repeating: 0, count: 4 - value.count)
      } else {
        bytes += be32(dataOffset)
        data += value
        dataOffset += value.count
      }
      return bytes
    }
    func ifd(_ entries: [Entry]) -> [UInt8] { be16(entries.count) + entries.flatMap(entry) + be32(0) }
    var out: [UInt8] = Array("MM".utf8) + [0, 42] + be32(ifd0Offset)
    var first = ifd0.map(entry)
    if !exif.isEmpty { first.append(be16(0x8769) + be16(4) + be32(1) + be32(exifOffset)) }
    if !gps.isEmpty { first.append(be16(0x8825) + be16(4) + be32(1) + be32(gpsOffset)) }
    out += be16(ifd0Count) + first.flatMap { $0 } + be32(0)
    if !exif.isEmpty { out += ifd(exif) }
    if !gps.isEmpty { out += ifd(gps) }
    return out + data
  }
}
