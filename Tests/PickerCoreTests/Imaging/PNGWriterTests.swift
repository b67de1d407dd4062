import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The cache's own PNG writer (png_write.c, huffman_deflate.c), read back
/// by libpng and zlib, which check every CRC and the Adler-32.
@Suite struct PNGWriterTests {
  /// Pictures that take each of the writer's paths: opaque (RGB) and not
  /// (RGBA), noise that no code shortens (stored blocks), one colour (a
  /// code of two symbols), a row of one pixel, and large enough for
  /// several blocks.
  static let pictures: [(name: String, image: PixelImage)] = [
    ("photo-like", gradient(128, 96, seed: 1, noise: 24, alpha: false)),
    ("with alpha", gradient(128, 96, seed: 2, noise: 24, alpha: true)),
    ("pure noise", noise(200, 150)),
    ("one colour", TestImages.solid(128, 96, TestImages.red)),
    ("one pixel", TestImages.solid(1, 1, TestImages.blue)),
    ("several blocks", gradient(256, 256, seed: 4, noise: 40, alpha: false)),
    ("skewed", gradient(300, 200, seed: 5, noise: 2, alpha: false)),
  ]

  /// A smooth picture with `noise` levels of grain, like a camera's.
  static func gradient(_ width: Int, _ height: Int, seed: UInt64, noise: Int, alpha: Bool) -> PixelImage {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    func random() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let base = [x * 255 / max(width, 1), y * 255 / max(height, 1), (x + y) * 127 / max(width + height, 1)]
        for value in base { bytes.append(UInt8(clamping: value + random() % max(noise, 1) - noise / 2)) }
        bytes.append(alpha ? UInt8(truncatingIfNeeded: x * 7 + y) : 255)
      }
    }
    return PixelImage(width: width, height: height, rgba: bytes)
  }

  /// Random bytes in every channel, alpha too.
  static func noise(_ width: Int, _ height: Int) -> PixelImage {
    var generator = SystemRandomNumberGenerator()
    return PixelImage(
      width: width, height: height,
      rgba: (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  func written(_ image: PixelImage, keys: [(String, String)] = []) throws -> [UInt8] {
    let folder = TestImages.temporaryFolder()
    let cache = FreedesktopThumbnailCache(root: folder.path)
    let entry = FreedesktopThumbnailCache.Entry(uri: "file:///p.jpg", mtime: 7)
    try cache.store(image, for: entry, flavor: .normal)
    return try #require(FileIO.readSmallFile(cache.path(of: entry, flavor: .normal)))
  }

  @Test(arguments: pictures.indices) func picturesComeBackExactly(_ index: Int) throws {
    let (name, image) = Self.pictures[index]
    let png = try written(image)
    let decoded = try ImageDecoder().decode(
      bytes: png, covering: PixelSize(width: image.width, height: image.height)
    ).image
    #expect(decoded.width == image.width && decoded.height == image.height, "\(name)")
    var differing = 0
    for y in 0..<image.height {
      for x in 0..<image.width where decoded.pixel(x: x, y: y) != image.pixel(x: x, y: y) { differing += 1 }
    }
    #expect(differing == 0, "\(name): \(differing) pixels differ")
  }

  @Test func opaquePicturesAreWrittenWithoutAlpha() throws {
    // IHDR's colour type: 2 is RGB, 6 RGBA.
    #expect(try written(Self.pictures[0].image)[25] == 2)
    #expect(try written(Self.pictures[1].image)[25] == 6)
  }

  @Test func aCameraLikeThumbnailIsCompressed() throws {
    // 128x96 RGB is 36,960 bytes of filtered rows; Huffman coding of a
    // photo's Sub residuals keeps about two thirds.
    let png = try written(Self.pictures[0].image)
    #expect(png.count < 30_000, "\(png.count) bytes")
  }

  @Test func noiseFallsBackToStoredBlocks() throws {
    // Bytes no code can shorten are stored: never more than the raw rows
    // and a few bytes a block.
    let image = Self.pictures[2].image
    let png = try written(image)
    let rows = image.height * (1 + image.width * 4)
    #expect(png.count <= rows + 200, "\(png.count) bytes for \(rows) bytes of rows")
  }

  @Test func skewedBytesGetCodesOfFifteenBitsAtMost() throws {
    // A row whose Sub filter leaves 17 values with Fibonacci frequencies,
    // counting the row's filter byte (a 1) and the block's end: 1, 1, 2,
    // 3, 5, ... 2,584. Huffman's own code for them is a chain 17 bits
    // deep, and deflate allows 15.
    var residuals: [UInt8] = [0, 1]
    var (count, next) = (3, 5)
    for value in 2..<17 {
      residuals += Array(repeating: UInt8(value), count: count)
      (count, next) = (next, count + next)
    }
    var pixels: [UInt8] = []
    var left: [UInt8] = [0, 0, 0]
    for x in 0..<(residuals.count / 3) {
      for c in 0..<3 {
        left[c] = left[c] &+ residuals[x * 3 + c]
        pixels.append(left[c])
      }
      pixels.append(255)
    }
    let image = PixelImage(width: residuals.count / 3, height: 1, rgba: pixels)
    let png = try #require(ImageEncoder.thumbnailPNG(image))
    #expect(png.count < residuals.count / 2, "\(png.count) bytes")
    let decoded = try ImageDecoder().decode(bytes: png, covering: PixelSize(width: image.width, height: 1)).image
    #expect(decoded.width == image.width)
    #expect((0..<image.width).allSatisfy { decoded.pixel(x: $0, y: 0) == image.pixel(x: $0, y: 0) })
  }

  @Test func textKeysAreReadBack() throws {
    let png = try written(Self.pictures[0].image)
    #expect(FreedesktopThumbnailCache.text(png, key: "Thumb::URI") == "file:///p.jpg")
    #expect(FreedesktopThumbnailCache.text(png, key: "Thumb::MTime") == "7")
  }
}
