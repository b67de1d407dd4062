import Foundation
import Testing

@testable import PickerCore

/// The library's header reader on real files: the EXIF date, camera, lens,
/// orientation and place from every format that carries EXIF (tagged by
/// exiftool, as a camera or a photo manager leaves them), and a bare TIFF.
@Suite struct PhotoMetadataTests {
  static let latestDay = CivilDate(year: 2030, month: 1, day: 1).dayNumber

  func read(_ path: String) -> PhotoMetadata {
    PhotoMetadataReader.read(
      path: PathBytes(path), name: Array((path as NSString).lastPathComponent.utf8),
      modified: timespec(tv_sec: 0, tv_nsec: 0), latestDay: Self.latestDay)
  }

  @Test(arguments: 0..<4) func everyFormatGivesItsExifDateCameraAndPlace(_ index: Int) throws {
    let (ext, format, _) = FactsReaderTests.formats[index]
    let file = TestImages.temporaryFolder().appendingPathComponent("IMG_19990101_000000." + ext)
    TestImages.write(try #require(ImageEncoder.encode(TestImages.quadrants(64, 48), as: format)), to: file)
    try FactsReaderTests.tag(file)
    let metadata = read(file.path)
    // EXIF wins over the date in the name.
    #expect(metadata.taken.origin == .exif, "\(ext)")
    #expect(metadata.taken.label == "2024-07-01 18:30:00", "\(ext)")
    #expect(metadata.make == "FUJIFILM" && metadata.model == "X-T4" && metadata.lens == "XF35mmF1.4 R", "\(ext)")
    #expect(metadata.orientation == 6, "\(ext)")
    // HEIC's largest image property may be the coded size, padded.
    #expect(metadata.width == 64 && (metadata.height == 48 || ext == "heic"), "\(ext)")
    #expect(metadata.latitude.map { abs($0 - 48.8584) < 1e-4 } == true, "\(ext)")
    #expect(metadata.longitude.map { abs($0 + 2.2945) < 1e-4 } == true, "\(ext)")
  }

  @Test func aTiffHeaderGivesItsDate() throws {
    let file = TestImages.temporaryFolder().appendingPathComponent("scan.tif")
    let tiff = ExifJPEG.tiffBytes(
      ifd0: [.init(tag: 0x010F, text: "Canon")],
      exif: [.init(tag: 0x9003, text: "2019:12:31 23:59:59"), .init(tag: 0x9011, text: "-05:00")])
    _ = FileManager.default.createFile(atPath: file.path, contents: Data(tiff))
    let metadata = read(file.path)
    #expect(metadata.taken.label == "2019-12-31 23:59:59 -05:00")
    #expect(metadata.make == "Canon")
  }

  @Test func noDateAnywhereIsTheFileTime() throws {
    let file = TestImages.temporaryFolder().appendingPathComponent("untitled.png")
    TestImages.write(try #require(ImageEncoder.encode(TestImages.quadrants(8, 8), as: .png)), to: file)
    let metadata = PhotoMetadataReader.read(
      path: PathBytes(file.path), name: Array("untitled.png".utf8),
      modified: timespec(tv_sec: 1_600_000_000, tv_nsec: 0),
      latestDay: Self.latestDay)
    #expect(metadata.taken.origin == .fileTime)
    #expect(metadata.taken.date.year == 2020)
  }
}
