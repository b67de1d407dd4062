import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Camera RAWs show the camera's own preview, upright; BMPs decode through
/// stb_image. LibRaw runs in this process here: the helper process the
/// picker uses is checked end to end (test_corpus.py).
@Suite struct RawAndBitmapTests {
  let box = PixelSize(width: 64, height: 64)

  func dng(orientation: Int, make: String = "Test") -> [UInt8] {
    let upright = TestImages.quadrants(160, 120)
    let stored = TestImages.stored(upright, orientation: orientation)
    return DNGBytes.dng(
      preview: TestImages.jpeg(stored), previewSize: PixelSize(width: stored.width, height: stored.height),
      orientation: orientation, make: make)
  }

  @Test(arguments: [1, 3, 6, 8])
  func aDNGShowsItsPreviewUpright(orientation: Int) throws {
    let decoded = try ImageDecoder().decode(bytes: dng(orientation: orientation), covering: box)
    #expect(decoded.format == .raw)
    #expect(decoded.usedEmbeddedThumbnail)
    #expect(decoded.orientation == orientation)
    #expect(decoded.image.width > decoded.image.height)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func aDNGsFactsComeFromLibRaw() throws {
    let folder = TestImages.temporaryFolder()
    let url = folder.appendingPathComponent("photo.dng")
    TestImages.write(dng(orientation: 6, make: "Acme"), to: url)
    let facts = FactsReader.read(PathBytes(url.path), name: "photo.dng")
    #expect(facts.format == "camera RAW")
    #expect(facts.metadata.camera == "Acme Camera")
    #expect(facts.metadata.orientation == 6)
  }

  @Test func aPlainTIFFWithAMakerTagIsStillATIFF() throws {
    // Looks like a RAW from its tags (Make), is not one: libtiff reads it.
    let folder = TestImages.temporaryFolder()
    let png = folder.appendingPathComponent("in.png")
    TestImages.write(try #require(ImageEncoder.encode(TestImages.quadrants(), as: .png)), to: png)
    let tiff = folder.appendingPathComponent("out.tiff")
    let status = try ChildRun(["convert", png.path, "-set", "tiff:make", "Acme", tiff.path]).wait()
    try #require(status == 0, "ImageMagick's convert is needed")
    let bytes = try [UInt8](Data(contentsOf: tiff))
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
    #expect(decoded.format == .tiff)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func aBMPDecodesUprightAndFitted() throws {
    let bytes = BMPBytes.bmp24(TestImages.quadrants(128, 96))
    let decoded = try ImageDecoder().decode(bytes: bytes, covering: box)
    #expect(decoded.format == .bmp)
    #expect(decoded.image.width == 64 && decoded.image.height == 48)
    #expect(TestImages.isUprightQuadrants(decoded.image))
  }

  @Test func aBMPHeaderBombIsRefusedFromItsHeader() {
    let bytes = BMPBytes.header(width: 50000, height: 50000)
    #expect {
      try ImageDecoder().decode(bytes: bytes, covering: box)
    } throws: { error in
      (error as? ImageDecodingError)?.message.contains("too large") == true
    }
  }

  @Test func rawAndBitmapExtensionsAreListed() {
    for name in ["a.dng", "b.CR2", "c.cr3", "d.NEF", "e.arw", "f.orf", "g.rw2", "h.raf", "i.bmp", "j.3fr"] {
      #expect(PhotoFileTypes.isPhoto(name: Array(name.utf8)), "\(name)")
    }
  }
}
