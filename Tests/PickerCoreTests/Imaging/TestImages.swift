import Foundation

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Images the tests make themselves, encoded with the same libraries that
/// decode them.
enum TestImages {
  typealias RGB = (r: UInt8, g: UInt8, b: UInt8)
  static let red: RGB = (255, 0, 0)
  static let green: RGB = (0, 255, 0)
  static let blue: RGB = (0, 0, 255)
  static let white: RGB = (255, 255, 255)

  static func solid(_ width: Int, _ height: Int, _ color: RGB) -> PixelImage {
    PixelImage(
      width: width, height: height,
      rgba: Array((0..<(width * height)).map { _ in [color.r, color.g, color.b, 255] }.joined()))
  }

  /// Red top-left, green top-right, blue bottom-left, white bottom-right:
  /// any turn or mirror of it is visible.
  static func quadrants(_ width: Int = 64, _ height: Int = 48) -> PixelImage {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let color = y < height / 2 ? (x < width / 2 ? red : green) : (x < width / 2 ? blue : white)
        bytes += [color.r, color.g, color.b, 255]
      }
    }
    return PixelImage(width: width, height: height, rgba: bytes)
  }

  /// The image turned a quarter clockwise.
  static func turnedClockwise(_ image: PixelImage) -> PixelImage {
    remap(image, width: image.height, height: image.width) { x, y in (y, image.height - 1 - x) }
  }

  static func turnedCounterClockwise(_ image: PixelImage) -> PixelImage {
    remap(image, width: image.height, height: image.width) { x, y in (image.width - 1 - y, x) }
  }

  static func turnedHalf(_ image: PixelImage) -> PixelImage {
    remap(image, width: image.width, height: image.height) { x, y in (image.width - 1 - x, image.height - 1 - y) }
  }

  /// How a camera stores an upright picture for an EXIF orientation: the
  /// tag then says how to turn it back.
  static func stored(_ upright: PixelImage, orientation: Int) -> PixelImage {
    switch orientation {
    case 3: return turnedHalf(upright)
    case 6: return turnedCounterClockwise(upright)  // displayed turned clockwise
    case 8: return turnedClockwise(upright)
    default: return upright
    }
  }

  private static func remap(_ image: PixelImage, width: Int, height: Int, source: (Int, Int) -> (Int, Int))
    -> PixelImage
  {
    var bytes: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let (sx, sy) = source(x, y)
        let p = image.pixel(x: sx, y: sy)
        bytes += [p.r, p.g, p.b, p.a]
      }
    }
    return PixelImage(width: width, height: height, rgba: bytes)
  }

  static func jpeg(_ image: PixelImage, quality: Int = 92) -> [UInt8] {
    ImageEncoder.encode(image, as: .jpeg(quality: quality))!
  }

  /// A JPEG with an EXIF APP1 segment (orientation, optional thumbnail)
  /// right after SOI, as cameras write it.
  static func jpeg(
    _ image: PixelImage, orientation: Int, thumbnail: [UInt8]? = nil, bigEndian: Bool = false
  ) -> [UInt8] {
    let main = jpeg(image)
    let app1 = exifSegment(orientation: orientation, thumbnail: thumbnail, bigEndian: bigEndian)
    return Array(main[0..<2]) + app1 + Array(main[2...])
  }

  static func exifSegment(orientation: Int, thumbnail: [UInt8]?, bigEndian: Bool) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] {
      bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
    }
    func u32(_ v: Int) -> [UInt8] {
      let bytes = [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
      return bigEndian ? bytes : bytes.reversed()
    }
    func entry(_ tag: Int, _ type: Int, _ value: Int) -> [UInt8] {
      // SHORT values sit in the first two bytes of the value field.
      u16(tag) + u16(type) + u32(1) + (type == 3 ? u16(value) + [0, 0] : u32(value))
    }
    var tiff: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
    let ifd1Offset = 8 + 2 + 12 + 4
    tiff += u16(1) + entry(0x0112, 3, orientation) + u32(thumbnail == nil ? 0 : ifd1Offset)
    if let thumbnail {
      let dataOffset = ifd1Offset + 2 + 3 * 12 + 4
      tiff += u16(3) + entry(0x0103, 3, 6) + entry(0x0201, 4, dataOffset) + entry(0x0202, 4, thumbnail.count) + u32(0)
      tiff += thumbnail
    }
    let body = Array("Exif".utf8) + [0, 0] + tiff
    let length = body.count + 2
    return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
  }

  /// The average colour of a region of a decoded image.
  static func average(_ image: PixelImage, x: Range<Int>, y: Range<Int>) -> (r: Int, g: Int, b: Int) {
    var (r, g, b, n) = (0, 0, 0, 0)
    for py in y {
      for px in x {
        let p = image.pixel(x: px, y: py)
        r += Int(p.r)
        g += Int(p.g)
        b += Int(p.b)
        n += 1
      }
    }
    return (r / n, g / n, b / n)
  }

  /// Colours of the four quadrant centres: top-left, top-right, bottom-left, bottom-right.
  static func quadrantColors(_ image: PixelImage) -> [(r: Int, g: Int, b: Int)] {
    let w = image.width
    let h = image.height
    func centre(_ qx: Int, _ qy: Int) -> (r: Int, g: Int, b: Int) {
      let x0 = qx * w / 2 + w / 8
      let y0 = qy * h / 2 + h / 8
      return average(image, x: x0..<(x0 + w / 4), y: y0..<(y0 + h / 4))
    }
    return [centre(0, 0), centre(1, 0), centre(0, 1), centre(1, 1)]
  }

  static func isClose(_ a: (r: Int, g: Int, b: Int), _ b: RGB, tolerance: Int = 40) -> Bool {
    abs(a.r - Int(b.r)) <= tolerance && abs(a.g - Int(b.g)) <= tolerance && abs(a.b - Int(b.b)) <= tolerance
  }

  /// True when the image shows the quadrants the right way up.
  static func isUprightQuadrants(_ image: PixelImage, tolerance: Int = 40) -> Bool {
    let colors = quadrantColors(image)
    return isClose(colors[0], red, tolerance: tolerance) && isClose(colors[1], green, tolerance: tolerance)
      && isClose(colors[2], blue, tolerance: tolerance) && isClose(colors[3], white, tolerance: tolerance)
  }

  /// A fresh empty folder for one test, inside one folder for the whole
  /// test process that goes when the process exits (one each, never
  /// removed, they piled up by the hundred a run).
  static func temporaryFolder() -> URL {
    let url = processFolder.appendingPathComponent(UUID().uuidString)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  private static let processFolder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("picker-tests-\(getpid())")
    // What an earlier process of the same number left after a crash.
    try? FileManager.default.removeItem(at: url)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: TestImages.processFolder) }
    return url
  }()

  static func write(_ bytes: [UInt8], to url: URL) {
    try! Data(bytes).write(to: url)
  }
}
