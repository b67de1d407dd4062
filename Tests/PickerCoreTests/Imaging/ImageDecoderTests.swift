import Foundation
import PickerTestSupport
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct ImageDecoderTests {
  @Test func anEmbeddedThumbnailServesWhenItCoversTheEnoughBox() throws {
    let thumbnail = TestImages.jpeg(TestImages.quadrants(160, 120))
    let bytes = TestImages.jpeg(TestImages.quadrants(1600, 1200), orientation: 1, thumbnail: thumbnail)
    let large = PixelSize(width: 256, height: 256)
    #expect(try !ImageDecoder().decode(bytes: bytes, covering: large).usedEmbeddedThumbnail)
    let tile = PixelSize(width: 128, height: 136)
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: large, enough: tile)
    #expect(decoded.usedEmbeddedThumbnail && decoded.image.width == 160)
  }

  let decoder = ImageDecoder()
  let box = PixelSize(width: 64, height: 64)

  @Test(arguments: [1, 3, 6, 8], [false, true])
  func orientationLandsUprightOnTheDCTPath(orientation: Int, bigEndian: Bool) throws {
    let stored = TestImages.stored(TestImages.quadrants(), orientation: orientation)
    let bytes = TestImages.jpeg(stored, orientation: orientation, bigEndian: bigEndian)
    let decoded = try decoder.decode(bytes: bytes, covering: box)
    #expect(decoded.orientation == orientation)
    #expect(!decoded.usedEmbeddedThumbnail)
    #expect(decoded.image.width == 64 && decoded.image.height == 48)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test(arguments: [1, 3, 6, 8])
  func orientationLandsUprightOnTheEXIFThumbnailPath(orientation: Int) throws {
    let upright = TestImages.quadrants(640, 480)
    let stored = TestImages.stored(upright, orientation: orientation)
    let thumbnail = TestImages.jpeg(stored.fitted(maxWidth: 160, maxHeight: 160))
    let bytes = TestImages.jpeg(stored, orientation: orientation, thumbnail: thumbnail)
    let decoded = try decoder.decode(bytes: bytes, covering: box)
    #expect(decoded.usedEmbeddedThumbnail)
    // The 160x120 thumbnail, itself DCT-scaled to 1/2: still covers 64x48.
    #expect(decoded.image.width == 80 && decoded.image.height == 60)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func thumbnailIsUsedOnlyWhenItCoversTheBox() throws {
    // Different colours tell which picture was decoded.
    let main = TestImages.solid(640, 480, TestImages.blue)
    let thumbnail = TestImages.jpeg(TestImages.solid(160, 120, TestImages.red))
    let bytes = TestImages.jpeg(main, orientation: 1, thumbnail: thumbnail)
    let small = try decoder.decode(bytes: bytes, covering: PixelSize(width: 64, height: 64))
    #expect(small.usedEmbeddedThumbnail)
    #expect(TestImages.isClose(TestImages.average(small.image, x: 0..<10, y: 0..<10), TestImages.red))
    let large = try decoder.decode(bytes: bytes, covering: PixelSize(width: 320, height: 320))
    #expect(!large.usedEmbeddedThumbnail)
    #expect(TestImages.isClose(TestImages.average(large.image, x: 0..<10, y: 0..<10), TestImages.blue))
  }

  @Test func exifThumbnailAndDCTPathsAgreeOnColour() throws {
    let picture = TestImages.quadrants(800, 600)
    let thumbnail = TestImages.jpeg(picture.fitted(maxWidth: 160, maxHeight: 160))
    let bytes = TestImages.jpeg(picture, orientation: 1, thumbnail: thumbnail)
    let viaThumbnail = try decoder.decode(bytes: bytes, covering: box)
    let viaDCT = try decoder.decode(bytes: TestImages.jpeg(picture), covering: box)
    #expect(viaThumbnail.usedEmbeddedThumbnail && !viaDCT.usedEmbeddedThumbnail)
    for (a, b) in zip(TestImages.quadrantColors(viaThumbnail.image), TestImages.quadrantColors(viaDCT.image)) {
      #expect(abs(a.r - b.r) < 24 && abs(a.g - b.g) < 24 && abs(a.b - b.b) < 24)
    }
  }

  @Test func largeJPEGIsDecodedAtTheSmallestDCTScaleThatCoversTheBox() throws {
    let bytes = TestImages.jpeg(TestImages.quadrants(800, 600))
    let small = try decoder.decode(bytes: bytes, covering: PixelSize(width: 64, height: 64))
    #expect(small.scaleDenominator == 8)
    #expect(small.image.width == 100 && small.image.height == 75)
    let medium = try decoder.decode(bytes: bytes, covering: PixelSize(width: 256, height: 256))
    #expect(medium.scaleDenominator == 2)
    #expect(medium.sourceSize == PixelSize(width: 800, height: 600))
  }

  @Test func pngWebPAndGIFDecode() throws {
    let picture = TestImages.quadrants()
    for (name, bytes, tolerance) in [
      ("png", TestImageEncoder.encode(picture, as: .png)!, 0),
      ("webp", TestImageEncoder.encode(picture, as: .webp(quality: 90))!, 40),
      ("gif", TestImageEncoder.encode(picture, as: .gif(moreFrames: []))!, 0),
    ] {
      let decoded = try decoder.decode(bytes: bytes, covering: box)
      #expect(decoded.format?.rawValue == name)
      #expect(TestImages.isUprightQuadrants(decoded.image, tolerance: tolerance), "\(name)")
    }
  }

  @Test func gifShowsItsFirstFrame() throws {
    let bytes = TestImageEncoder.encode(
      TestImages.solid(32, 32, TestImages.red), as: .gif(moreFrames: [TestImages.solid(32, 32, TestImages.blue)]))!
    let decoded = try decoder.decode(bytes: bytes, covering: box)
    #expect(TestImages.isClose(TestImages.average(decoded.image, x: 0..<32, y: 0..<32), TestImages.red, tolerance: 0))
  }

  @Test func heicDecodesAndUsesItsEmbeddedThumbnail() throws {
    let picture = TestImages.quadrants(512, 384)
    let plain = try decoder.decode(bytes: TestImageEncoder.encode(picture, as: .heic(thumbnailSize: 0))!, covering: box)
    #expect(plain.format == .heif && !plain.usedEmbeddedThumbnail)
    #expect(TestImages.isUprightQuadrants(plain.image))
    let withThumbnail = TestImageEncoder.encode(picture, as: .heic(thumbnailSize: 128))!
    let small = try decoder.decode(bytes: withThumbnail, covering: box)
    #expect(small.usedEmbeddedThumbnail)
    #expect(small.image.width == 128)
    #expect(TestImages.isUprightQuadrants(small.image))
  }

  /// Without a thumbnail item the whole photo is decoded and brought down
  /// to the box straight from libheif's buffer (no full-size copy): the
  /// same pixels as the whole decode averaged by hand.
  @Test func aHEICWithoutThumbnailIsBroughtDownInPlace() throws {
    let bytes = try #require(TestImageEncoder.encode(TestImages.quadrants(512, 384), as: .heic(thumbnailSize: 0)))
    let whole = try decoder.decode(bytes: bytes, covering: PixelSize(width: 512, height: 384)).image
    let small = try decoder.decode(bytes: bytes, covering: box)
    #expect(!small.usedEmbeddedThumbnail && small.image.width == 64 && small.image.height == 48)
    for (x, y) in [(0, 0), (31, 23), (32, 24), (63, 47), (10, 40)] {
      let expected = TestImages.average(whole, x: (x * 8)..<(x * 8 + 8), y: (y * 8)..<(y * 8 + 8))
      let got = TestImages.average(small.image, x: x..<(x + 1), y: y..<(y + 1))
      let rgb = (r: UInt8(expected.r), g: UInt8(expected.g), b: UInt8(expected.b))
      #expect(TestImages.isClose(got, rgb, tolerance: 1), "(\(x), \(y))")
    }
  }

  @Test func formatComesFromTheBytesNotTheName() throws {
    let folder = TestImages.temporaryFolder()
    let file = folder.appendingPathComponent("really-a-png.jpg")
    TestImages.write(TestImageEncoder.encode(TestImages.quadrants(), as: .png)!, to: file)
    let decoded = try decoder.decode(file: PathBytes(file.path), covering: box)
    #expect(decoded.format == .png)
  }

  @Test func brokenInputsGiveErrorsNotCrashes() throws {
    let good = TestImages.jpeg(TestImages.quadrants(320, 240))
    var hugeJPEG = good
    // The frame header's height and width bytes, claiming 60000 x 60000.
    let sof = (0..<(good.count - 1)).first { good[$0] == 0xFF && good[$0 + 1] == 0xC0 }!
    hugeJPEG.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])
    var hugePNG = TestImageEncoder.encode(TestImages.quadrants(), as: .png)!
    hugePNG.replaceSubrange(16..<24, with: [0, 0x01, 0x86, 0xA0, 0, 0x01, 0x86, 0xA0])  // 100000 x 100000
    let cases: [(String, [UInt8], String)] = [
      ("empty", [], "empty"),
      ("text", Array("hello, not an image at all".utf8), "not an image"),
      ("truncated JPEG", Array(good.prefix(good.count / 2)), "truncated"),
      ("garbage after SOI", [0xFF, 0xD8, 0xFF] + Array(repeating: 0x42, count: 200), "corrupt"),
      ("huge JPEG", hugeJPEG, "too large"),
      ("huge PNG", hugePNG, "too large"),
      ("truncated PNG", Array(TestImageEncoder.encode(TestImages.quadrants(), as: .png)!.prefix(60)), "PNG"),
      ("corrupt WebP", Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 garbage".utf8), "WebP"),
      ("corrupt GIF", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x2C], "GIF"),
      ("corrupt HEIF", [0, 0, 0, 24] + Array("ftypheic".utf8) + Array(repeating: 7, count: 40), "HEIF"),
    ]
    for (name, bytes, expected) in cases {
      #expect(throws: ImageDecodingError.self, "\(name)") { try decoder.decode(bytes: bytes, covering: box) }
      do {
        _ = try decoder.decode(bytes: bytes, covering: box)
      } catch {
        #expect(error.message.contains(expected), "\(name): \(error.message)")
        #expect(!error.message.contains("\n") && !error.message.hasSuffix(" "), "\(name): one clean line")
      }
    }
  }

  @Test func filesThatAreNotRegularAreRefusedWithoutBlocking() throws {
    let folder = TestImages.temporaryFolder()
    let fifo = folder.appendingPathComponent("x.jpg")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    #expect(throws: ImageDecodingError("not a regular file", isContentError: false)) {
      try decoder.decode(file: PathBytes(fifo.path), covering: box)
    }
    #expect(throws: ImageDecodingError("a folder, not an image")) {
      try decoder.decode(file: PathBytes(folder.path), covering: box)
    }
    #expect(throws: ImageDecodingError.self) {
      try decoder.decode(file: PathBytes(folder.appendingPathComponent("gone.jpg").path), covering: box)
    }
    let empty = folder.appendingPathComponent("empty.jpg")
    TestImages.write([], to: empty)
    #expect(throws: ImageDecodingError("empty file", isContentError: true)) {
      try decoder.decode(file: PathBytes(empty.path), covering: box)
    }
  }

  @Test func cameraFileIsDecodedFromItsThumbnailWithoutReadingTheRest() throws {
    // A valid head and a body of garbage: only the EXIF thumbnail path can
    // succeed, which shows the rest was never needed.
    let picture = TestImages.quadrants(640, 480)
    let thumbnail = TestImages.jpeg(picture.fitted(maxWidth: 160, maxHeight: 160))
    var bytes = TestImages.jpeg(picture, orientation: 1, thumbnail: thumbnail)
    bytes += Array(repeating: 0, count: 300_000)
    let folder = TestImages.temporaryFolder()
    let file = folder.appendingPathComponent("camera.jpg")
    TestImages.write(bytes, to: file)
    let decoded = try decoder.decode(file: PathBytes(file.path), covering: box)
    #expect(decoded.usedEmbeddedThumbnail)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func aLargeFileThatIsNoImageIsRefusedFromItsHead() throws {
    let folder = TestImages.temporaryFolder()
    let file = folder.appendingPathComponent("video.jpg")
    TestImages.write(Array(repeating: 0x42, count: 2_000_000), to: file)
    #expect(throws: ImageDecodingError("not an image this picker can read", isContentError: true)) {
      try decoder.decode(file: PathBytes(file.path), covering: box)
    }
  }

  @Test func percentEncodedDataURLsMayHoldAnyBytes() throws {
    let png = TestImageEncoder.encode(TestImages.quadrants(), as: .png)!
    let encoded = png.map { String(format: "%%%02X", $0) }.joined()
    guard case .bytes(let bytes) = try DataURLLoader().load(.url("data:image/png," + encoded), isCancelled: { false })
    else {
      Issue.record("expected bytes")
      return
    }
    #expect(bytes == png)
  }

  @Test func renderingToCellsKeepsTheAspectRatio() throws {
    let wide = TestImages.quadrants(160, 60)
    let cells = try #require(CellRenderer.render(wide, maxColumns: 16, maxRows: 8, depth: .truecolor))
    #expect(cells.columns == 16 && cells.rows < 8)
    let rgb = cells.glyphs.compactMap { glyph -> UInt32? in
      if case .rgb(let value) = cells.color(glyph.background) { return value }
      return nil
    }
    #expect(Set(rgb).count >= 3, "the quadrants' colours come through")
    let mono = try #require(CellRenderer.render(wide, maxColumns: 16, maxRows: 8, depth: .none))
    #expect(mono.glyphs.allSatisfy { mono.color($0.foreground) == .default })
    #expect(Set(mono.glyphs.map(\.scalar)).count >= 2, "monochrome still shows shapes")
    let palette = try #require(CellRenderer.render(wide, maxColumns: 16, maxRows: 8, depth: .palette256))
    #expect(palette.glyphs.allSatisfy { $0.background < 256 && $0.foreground < 256 })
  }
}
