import Foundation
import PickerTestSupport
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Photos shown right whatever wrote them: 16-bit PNGs, orientation in PNG
/// and WebP, stale or corrupt EXIF thumbnails, very large sensors.
@Suite struct ImageCorrectnessTests {
  let box = PixelSize(width: 64, height: 64)

  @Test func a16BitPNGWithoutGammaIsNotWashedOut() throws {
    // Mid grey, 0x8080 of 0xFFFF: sRGB-encoded it stays ~128; taken as
    // linear light it would come out ~188.
    let bytes = PNGBytes.rgb16(width: 4, height: 4, sample: 0x8080)
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
    let pixel = decoded.image.pixel(x: 1, y: 1)
    #expect(abs(Int(pixel.r) - 128) <= 2 && abs(Int(pixel.b) - 128) <= 2, "got \(pixel)")
  }

  @Test(arguments: [3, 6, 8])
  func pngOrientationFromItsEXIfChunk(orientation: Int) throws {
    let stored = TestImages.stored(TestImages.quadrants(), orientation: orientation)
    let png = try #require(TestImageEncoder.encode(stored, as: .png))
    let bytes = PNGBytes.inserting(chunk: "eXIf", body: tiffEXIF(orientation: orientation), into: png)
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
    #expect(decoded.orientation == orientation)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test(arguments: [3, 6, 8])
  func webPOrientationFromItsEXIFChunk(orientation: Int) throws {
    let stored = TestImages.stored(TestImages.quadrants(), orientation: orientation)
    let webp = try #require(TestImageEncoder.encode(stored, as: .webp(quality: 100)))
    let bytes = extendedWebP(webp, width: stored.width, height: stored.height, exif: tiffEXIF(orientation: orientation))
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: PixelSize(width: 32, height: 32))
    #expect(decoded.orientation == orientation)
    #expect(decoded.image.width == 32 && decoded.image.height == 24, "scaled into the box, then turned")
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func aColourThumbnailOfAGreyscalePhotoIsStale() throws {
    let photo = try #require(TestImageEncoder.encode(TestImages.quadrants(640, 480), as: .jpegGreyscale(quality: 90)))
    let thumbnail = TestImages.jpeg(TestImages.quadrants(160, 120))
    let app1 = TestImages.exifSegment(orientation: 1, thumbnail: thumbnail, bigEndian: false)
    let bytes = Array(photo[0..<2]) + app1 + Array(photo[2...])
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
    #expect(!decoded.usedEmbeddedThumbnail)
    let corner = decoded.image.pixel(x: 5, y: 5)
    #expect(corner.r == corner.g && corner.g == corner.b, "the photo is grey; the stale thumbnail is red there")
  }

  /// Photos small and wide and tall, with a thumbnail of their own
  /// shape: the check compares the same share of each (a 320x240 photo
  /// is 30 rows at 1/8 scale, its band two of them, and so eight of the
  /// thumbnail's), and tells a thumbnail turned against its photo.
  @Test(arguments: [
    (640, 480, 160, 120), (320, 240, 160, 120), (480, 640, 120, 160), (1280, 720, 160, 90), (4000, 3000, 160, 120),
  ])
  func aThumbnailTurnedAgainstItsPhotoIsStale(sizes: (Int, Int, Int, Int)) throws {
    let (width, height, thumbnailWidth, thumbnailHeight) = sizes
    let upright = TestImages.quadrants(thumbnailWidth, thumbnailHeight)
    for (thumbnail, stale) in [(upright, false), (TestImages.turnedHalf(upright), true)] {
      let bytes = TestImages.jpeg(
        TestImages.quadrants(width, height), orientation: 1, thumbnail: TestImages.jpeg(thumbnail))
      let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
      #expect(decoded.usedEmbeddedThumbnail == !stale, "\(sizes), stale: \(stale)")
      #expect(TestImages.isUprightQuadrants(decoded.image), "\(sizes), stale: \(stale)")
    }
  }

  @Test func aCorruptThumbnailFallsBackToThePhoto() throws {
    var thumbnail = TestImages.jpeg(TestImages.quadrants(160, 120))
    // Garbage in the middle of the entropy-coded data: libjpeg decodes past
    // it with warnings and would draw noise.
    var seed: UInt32 = 7
    for index in (thumbnail.count / 2)..<(thumbnail.count / 2 + 64) {
      seed = seed &* 1_103_515_245 &+ 12345
      thumbnail[index] = UInt8(truncatingIfNeeded: seed >> 16) & 0x7F
    }
    let bytes = TestImages.jpeg(TestImages.quadrants(640, 480), orientation: 1, thumbnail: thumbnail)
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
    #expect(!decoded.usedEmbeddedThumbnail)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func thePixelLimitBoundsWhatIsDecodedNotTheHeader() throws {
    // 1.92 MP against a 1 MP limit: at 1/8 it is 200x150, so it shows.
    let bytes = TestImages.jpeg(TestImages.quadrants(1600, 1200))
    let small = try ImageDecoder(maxPixels: 1_000_000).decode(bytes: bytes, covering: box)
    #expect(small.sourceSize == PixelSize(width: 1600, height: 1200) && small.scaleDenominator == 8)
    // Only what cannot be decoded small is refused.
    #expect(throws: ImageDecodingError.self) {
      try ImageDecoder(maxPixels: 1_000_000).decode(bytes: bytes, covering: PixelSize(width: 1600, height: 1200))
    }
  }

  @Test func aHEICThumbnailWithoutThePrimarysRotationIsNotUsed() throws {
    let picture = TestImages.quadrants(512, 384)
    // The thumbnail's picture is turned a quarter (its item has no rotation
    // while the primary's picture is upright): it would show sideways.
    let bytes = try #require(TestImageEncoder.encode(picture, as: .heic(thumbnailSize: -128)))
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
    #expect(!decoded.usedEmbeddedThumbnail)
    #expect(decoded.image.width > decoded.image.height && TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func longerAndRarerExtensionsAreListed() {
    for name in ["a.jfif", "b.JPE", "c.avifs", "d.HEICS", "e.jpeg"] {
      #expect(PhotoFileTypes.isPhoto(name: Array(name.utf8)), "\(name)")
    }
    #expect(!PhotoFileTypes.isPhoto(name: Array("f.jpegs".utf8)))
  }

  /// A TIFF-headed EXIF blob with an orientation, as PNG and WebP keep it.
  private func tiffEXIF(orientation: Int) -> [UInt8] {
    let segment = TestImages.exifSegment(orientation: orientation, thumbnail: nil, bigEndian: orientation == 8)
    return Array(segment.dropFirst(4 + 6))  // APP1 marker and length, "Exif\0\0"
  }

  /// A simple WebP rewritten in the extended layout with an EXIF chunk.
  private func extendedWebP(_ simple: [UInt8], width: Int, height: Int, exif: [UInt8]) -> [UInt8] {
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    func le24(_ v: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    let vp8x = Array("VP8X".utf8) + le32(10) + [0x08, 0, 0, 0] + le24(width - 1) + le24(height - 1)
    var exifChunk = Array("EXIF".utf8) + le32(exif.count) + exif
    if exif.count % 2 == 1 { exifChunk.append(0) }
    let body = Array("WEBP".utf8) + vp8x + Array(simple[12...]) + exifChunk
    return Array("RIFF".utf8) + le32(body.count) + body
  }
}

/// PNG files written byte by byte, for what the encoder does not make.
enum PNGBytes {
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return be32(UInt32(body.count)) + typed + be32(crc32(typed))
  }

  /// `chunk` placed right after IHDR.
  static func inserting(chunk type: String, body: [UInt8], into png: [UInt8]) -> [UInt8] {
    let afterHeader = 8 + 8 + 13 + 4
    return Array(png[..<afterHeader]) + chunk(type, body) + Array(png[afterHeader...])
  }

  /// An RGB image of 16-bit samples, all `sample`, with no gAMA or sRGB.
  static func rgb16(width: Int, height: Int, sample: UInt16) -> [UInt8] {
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [16, 2, 0, 0, 0]
    var raw: [UInt8] = []
    for _ in 0..<height {
      raw.append(0)  // filter: none
      for _ in 0..<(width * 3) { raw += [UInt8(sample >> 8), UInt8(sample & 0xFF)] }
    }
    // zlib with one stored (uncompressed) deflate block.
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    let length = UInt16(raw.count)
    let zlib: [UInt8] =
      [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + raw
      + be32(b << 16 | a)
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
      + chunk("IEND", [])
  }
}
