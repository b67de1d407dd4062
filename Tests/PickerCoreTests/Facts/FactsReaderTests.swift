import Foundation
import PickerTestSupport
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Facts read back from real files: images our encoders make, with EXIF
/// written by exiftool (as a camera or a photo manager would leave it).
@Suite struct FactsReaderTests {
  static let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  static func tag(_ file: URL) throws {
    let status = try ChildRun(
      [
        try #require(exiftool, "exiftool (make test installs it)"), "-q", "-overwrite_original", "-Make=FUJIFILM",
        "-Model=X-T4", "-LensModel=XF35mmF1.4 R", "-FNumber=2.8", "-ExposureTime=1/250", "-ISO=400", "-FocalLength=35",
        "-DateTimeOriginal=2024:07:01 18:30:00", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
        "-GPSLongitudeRef=W", "-Orientation#=6", file.path,
      ]
    ).wait()
    #expect(status == 0, "exiftool could not tag \(file.lastPathComponent)")
  }

  static let formats: [(String, TestImageEncoder.Format, String)] = [
    ("jpg", .jpeg(quality: 90), "JPEG"), ("png", .png, "PNG"), ("webp", .webp(quality: 90), "WebP"),
    ("heic", .heic(thumbnailSize: 0), "HEIF/AVIF"),
  ]

  @Test(arguments: 0..<4) func cameraExposureDateAndPlaceFromEveryFormat(_ index: Int) throws {
    let (ext, format, name) = Self.formats[index]
    let folder = TestImages.temporaryFolder()
    let file = folder.appendingPathComponent("photo." + ext)
    TestImages.write(try #require(TestImageEncoder.encode(TestImages.quadrants(64, 48), as: format)), to: file)
    try Self.tag(file)
    let facts = FactsReader.read(PathBytes(file.path), name: "photo." + ext)
    #expect(facts.error == nil)
    #expect(facts.format == name)
    #expect(facts.pixelSize == PixelSize(width: 64, height: 48))
    #expect(
      facts.fileSize == Int64((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1))
    #expect(facts.metadata.camera == "FUJIFILM X-T4")
    #expect(facts.metadata.lens == "XF35mmF1.4 R")
    #expect(facts.metadata.fNumber == 2.8)
    #expect(facts.metadata.exposureSeconds.map { abs($0 - 0.004) < 1e-6 } == true)
    #expect(facts.metadata.iso == 400)
    #expect(facts.metadata.focalLength == 35)
    // No offset in the EXIF: the position's zone says it (facts only).
    #expect(
      facts.dateTaken
        == (ZoneData.table != nil
          ? "2024-07-01 18:30:00 (EXIF; UTC+02:00 at the position, Europe/Paris)" : "2024-07-01 18:30:00 (EXIF)"))
    #expect(facts.metadata.latitude.map { abs($0 - 48.8584) < 1e-4 } == true)
    #expect(facts.metadata.longitude.map { abs($0 + 2.2945) < 1e-4 } == true, "west is negative")
    #expect(facts.metadata.orientation == 6)
    let rows = Dictionary(uniqueKeysWithValues: facts.rows.map { ($0.label, $0.value) })
    #expect(rows["Aperture"] == "f/2.8" && rows["Exposure"] == "1/250 s" && rows["Focal"] == "35 mm")
    #expect(rows["GPS"] == "48.85840, -2.29450" && rows["Orientation"] == "rotated 90° CW")
    // West of Greenwich, that latitude is at sea off Brittany, more than
    // 25 km from a town, and the three nearest towns are French: the
    // country alone, in the facts and the compare panes.
    #expect(facts.place == "France")
    #expect(facts.placeName == "France")
    #expect(CompareView.summary(facts).hasSuffix("35 mm · France"))
  }

  @Test(arguments: ["webp", "png"]) func exifAfterTheImageDataOfALargeFileIsFound(_ ext: String) throws {
    // Noise does not compress: well past the 256 KB head that is read first.
    var generator = SystemRandomNumberGenerator()
    let rgba = (0..<(700 * 500)).flatMap { _ in
      [UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator), 90, 255]
    }
    let image = PixelImage(width: 700, height: 500, rgba: rgba)
    let file = TestImages.temporaryFolder().appendingPathComponent("large." + ext)
    TestImages.write(
      try #require(TestImageEncoder.encode(image, as: ext == "png" ? .png : .webp(quality: 95))), to: file)
    try Self.tag(file)
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
    #expect(size > 256 * 1024)
    let facts = FactsReader.read(PathBytes(file.path), name: "large." + ext)
    #expect(facts.metadata.camera == "FUJIFILM X-T4" && facts.pixelSize == PixelSize(width: 700, height: 500))
  }

  @Test func aFileWithoutEXIFStillHasItsSizeAndFormat() throws {
    let folder = TestImages.temporaryFolder()
    let file = folder.appendingPathComponent("plain.gif")
    TestImages.write(
      try #require(TestImageEncoder.encode(TestImages.quadrants(30, 20), as: .gif(moreFrames: []))), to: file)
    let facts = FactsReader.read(PathBytes(file.path), name: "plain.gif")
    #expect(
      facts.format == "GIF" && facts.pixelSize == PixelSize(width: 30, height: 20) && facts.metadata.camera == nil)
  }

  @Test func unreadableFilesSayWhy() {
    #expect(FactsReader.read(PathBytes("/nonexistent/x.jpg"), name: "x.jpg").error == "No such file or directory")
    #expect(FactsReader.read(PathBytes("/tmp"), name: "tmp").error == "not a regular file")
  }
}
