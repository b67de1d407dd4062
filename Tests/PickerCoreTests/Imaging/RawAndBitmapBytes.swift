@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Camera RAW and BMP files written byte by byte: no tool here writes DNG,
/// and the encoder makes no BMP.
enum DNGBytes {
  /// A little-endian DNG as cameras and converters lay it out: IFD0 is the
  /// preview (a baseline JPEG, NewSubfileType 1) with the maker, model and
  /// orientation; a SubIFD holds a small 16-bit Bayer (CFA) sensor image.
  static func dng(
    preview: [UInt8], previewSize: PixelSize, orientation: Int, make: String = "Test",
    model: String = "Camera"
  ) -> [UInt8] {
    enum Value {
      case short([Int]), long([Int]), byte([Int]), ascii(String), srational([Int]), offset(String)
    }
    let sensor = (width: 32, height: 24)
    let sensorBytes = [UInt8](repeating: 0x40, count: sensor.width * sensor.height * 2)
    let ifd0: [(Int, Value)] = [
      (254, .long([1])), (256, .long([previewSize.width])), (257, .long([previewSize.height])),
      (258, .short([8, 8, 8])), (259, .short([7])), (262, .short([6])), (271, .ascii(make)), (272, .ascii(model)),
      (273, .offset("preview")), (274, .short([orientation])), (277, .short([3])),
      (278, .long([previewSize.height])), (279, .long([preview.count])), (330, .offset("sensor-ifd")),
      (50706, .byte([1, 4, 0, 0])), (50707, .byte([1, 1, 0, 0])), (50708, .ascii("\(make) \(model)")),
      (50721, .srational([1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1])), (50778, .short([21])),
    ]
    let ifd1: [(Int, Value)] = [
      (254, .long([0])), (256, .long([sensor.width])), (257, .long([sensor.height])), (258, .short([16])),
      (259, .short([1])), (262, .short([32803])), (273, .offset("sensor")), (277, .short([1])),
      (278, .long([sensor.height])), (279, .long([sensorBytes.count])), (33421, .short([2, 2])),
      (33422, .byte([0, 1, 1, 2])), (50714, .long([0])), (50717, .long([65535])),
    ]
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    func size(_ ifd: [(Int, Value)]) -> Int { 2 + 12 * ifd.count + 4 }
    let ifd0Offset = 8
    let ifd1Offset = ifd0Offset + size(ifd0)
    var extra: [UInt8] = []
    let extraOffset = ifd1Offset + size(ifd1)
    // Values longer than four bytes go after both IFDs; then the preview and
    // the sensor data.
    func extraBytes(_ ifd: [(Int, Value)]) -> Int {
      ifd.reduce(0) { total, entry in
        let count = encoded(entry.1, offsets: [:]).count
        return total + (count > 4 ? count + count % 2 : 0)
      }
    }
    func encoded(_ value: Value, offsets: [String: Int]) -> [UInt8] {
      switch value {
      case .short(let values): return values.flatMap(u16)
      case .long(let values): return values.flatMap(u32)
      case .byte(let values): return values.map { UInt8($0) }
      case .ascii(let text): return Array(text.utf8) + [0]
      case .srational(let values): return values.flatMap(u32)
      case .offset(let name): return u32(offsets[name] ?? 0)
      }
    }
    let previewOffset = extraOffset + extraBytes(ifd0) + extraBytes(ifd1)
    let offsets = ["preview": previewOffset, "sensor": previewOffset + preview.count, "sensor-ifd": ifd1Offset]
    func table(_ ifd: [(Int, Value)]) -> [UInt8] {
      var bytes = u16(ifd.count)
      for (tag, value) in ifd {
        let data = encoded(value, offsets: offsets)
        let (type, count): (Int, Int) =
          switch value {
          case .short(let v): (3, v.count)
          case .long(let v): (4, v.count)
          case .byte(let v): (1, v.count)
          case .ascii: (2, data.count)
          case .srational(let v): (10, v.count / 2)
          case .offset: (4, 1)
          }
        bytes += u16(tag) + u16(type) + u32(count)
        if data.count <= 4 {
          bytes += data + [UInt8](repeating: 0, count: 4 - data.count)
        } else {
          bytes += u32(extraOffset + extra.count)
          extra += data
          if data.count % 2 == 1 { extra.append(0) }
        }
      }
      return bytes + u32(0)
    }
    let tables = table(ifd0) + table(ifd1)
    return Array("II".utf8) + u16(42) + u32(ifd0Offset) + tables + extra + preview + sensorBytes
  }
}

enum BMPBytes {
  /// A 24-bit bottom-up BMP (BITMAPINFOHEADER), as most writers make it.
  static func bmp24(_ image: PixelImage) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    let rowBytes = (image.width * 3 + 3) / 4 * 4
    var pixels: [UInt8] = []
    for y in stride(from: image.height - 1, through: 0, by: -1) {
      var row: [UInt8] = []
      for x in 0..<image.width {
        let pixel = image.pixel(x: x, y: y)
        row += [pixel.b, pixel.g, pixel.r]
      }
      pixels += row + [UInt8](repeating: 0, count: rowBytes - row.count)
    }
    let header =
      u32(40) + u32(image.width) + u32(image.height) + u16(1) + u16(24) + u32(0) + u32(pixels.count) + u32(2835)
      + u32(2835) + u32(0) + u32(0)
    return Array("BM".utf8) + u32(14 + header.count + pixels.count) + u32(0) + u32(14 + header.count) + header + pixels
  }

  /// Only a header, claiming `width` x `height` pixels.
  static func header(width: Int, height: Int) -> [UInt8] {
    let image = PixelImage(width: 1, height: 1, rgba: [0, 0, 0, 255])
    var bytes = bmp24(image)
    for (offset, value) in [(18, width), (22, height)] {
      for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
    return bytes
  }
}
