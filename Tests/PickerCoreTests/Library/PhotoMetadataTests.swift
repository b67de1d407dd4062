import Foundation
import PickerTestSupport
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

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
    TestImages.write(try #require(TestImageEncoder.encode(TestImages.quadrants(64, 48), as: format)), to: file)
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

  @Test func aRawWhoseFirstImageIsAPreviewDoesNotTakeItsSize() throws {
    // IFD0 a 160x120 reduced-resolution image (NewSubfileType 1), as in
    // NEF, DNG and ARW; the Exif IFD says the photo is 6000x4000.
    func entry(_ tag: Int, _ type: Int, _ value: Int) -> [UInt8] {
      ExifJPEG.be16(tag) + ExifJPEG.be16(type) + ExifJPEG.be32(1)
        + (type == 3 ? ExifJPEG.be16(value) + [0, 0] : ExifJPEG.be32(value))
    }
    let exifOffset = 8 + 2 + 4 * 12 + 4
    let tiff =
      Array("MM".utf8) + [0, 42] + ExifJPEG.be32(8) + ExifJPEG.be16(4) + entry(0x00FE, 4, 1)
      + entry(0x0100, 3, 160) + entry(0x0101, 3, 120) + entry(0x8769, 4, exifOffset) + ExifJPEG.be32(0)
      + ExifJPEG.be16(2) + entry(0xA002, 4, 6000) + entry(0xA003, 4, 4000) + ExifJPEG.be32(0)
    let file = TestImages.temporaryFolder().appendingPathComponent("DSC_0001.NEF")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data(tiff))
    let metadata = read(file.path)
    #expect(metadata.width == 6000 && metadata.height == 4000)
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

  @Test func anIPhoneBurstIDComesFromApplesMakerNoteAndStacksFarApart() throws {
    let folder = TestImages.temporaryFolder()
    var items: [PhotoItem] = []
    for (name, second) in [("IMG_0001.JPG", "05"), ("IMG_0002.JPG", "35")] {
      let file = folder.appendingPathComponent(name)
      TestImages.write(
        ExifJPEG.bytes(date: "2024:05:01 09:00:\(second)", appleBurst: "6F1C2B0E-93A4-4E3B-9C55-0A1B2C3D4E5F"), to: file
      )
      let metadata = PhotoMetadataReader.read(
        path: PathBytes(file.path), name: Array(name.utf8), modified: timespec(), latestDay: Self.latestDay)
      #expect(metadata.burstID == "apple-6F1C2B0E-93A4-4E3B-9C55-0A1B2C3D4E5F")
      var item = Fixture.photo(name)
      item.taken = metadata.taken
      item.burstID = metadata.burstID
      items.append(item)
    }
    // Thirty seconds apart and no signatures: the burst id alone stacks them.
    #expect(StackingRule().joins(items[1], after: items[0]))
    // A photo without a maker note has none; a Samsung burst name gives one.
    let plain = folder.appendingPathComponent("20240501_090005_001.jpg")
    TestImages.write(ExifJPEG.bytes(date: "2024:05:01 09:00:05"), to: plain)
    let samsung = PhotoMetadataReader.read(
      path: PathBytes(plain.path), name: Array("20240501_090005_001.jpg".utf8), modified: timespec(),
      latestDay: Self.latestDay)
    #expect(samsung.burstID == "samsung-20240501_090005")
  }

  /// A box of the ISO media file format: size, type, body.
  static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
    ExifJPEG.be32(8 + body.count) + Array(type.utf8) + body
  }

  @Test func aCanonCR3GivesItsDateFromItsMetadataBoxes() throws {
    // Laid out as Canon writes it (and LibRaw and ExifTool read it): the
    // TIFF structures in moov's Canon uuid box, CMT1 holding IFD0 and CMT2
    // the Exif IFD as its first IFD.
    let canon: [UInt8] = [
      0x85, 0xc0, 0xb6, 0x87, 0x82, 0x0f, 0x11, 0xe0, 0x81, 0x11, 0xf4, 0xce, 0x46, 0x2b, 0x6a, 0x48,
    ]
    let cmt1 = ExifJPEG.tiffBytes(
      ifd0: [.init(tag: 0x010F, text: "Canon"), .init(tag: 0x0110, text: "Canon EOS R6")], exif: [])
    let cmt2 = ExifJPEG.tiffBytes(
      ifd0: [.init(tag: 0x9003, text: "2022:08:09 07:06:05"), .init(tag: 0x9291, text: "42")], exif: [])
    let uuid = Self.box(
      "uuid",
      canon + Self.box("CNCV", Array("CanonCR3_001/00.09.00/00.00.00".utf8)) + Self.box("CMT1", cmt1)
        + Self.box("CMT2", cmt2))
    let file =
      Self.box("ftyp", Array("crx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8)) + Self.box("moov", uuid)
      + Self.box("mdat", [UInt8](repeating: 0, count: 64))
    let path = TestImages.temporaryFolder().appendingPathComponent("IMG_0001.CR3")
    _ = FileManager.default.createFile(atPath: path.path, contents: Data(file))
    let metadata = read(path.path)
    #expect(metadata.taken.origin == .exif)
    #expect(metadata.taken.label == "2022-08-09 07:06:05.420")
    #expect(metadata.make == "Canon" && metadata.model == "Canon EOS R6")
  }
}
