import CImaging
import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The header reader on videos ffmpeg makes (and exiftool turns): the moov
/// box found at the end and at the start, the duration, the video track's
/// size and rotation, and the date in the order: Apple's
/// creationdate (the clip's own clock), then the movie header's creation
/// time (UTC, shown on this machine's clock), then the name.
@Suite struct VideoHeaderTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "video-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  /// A 1-second 160x120 test pattern made by ffmpeg with these options.
  func clip(_ name: String, _ options: [String]) throws -> String {
    let path = root + "/" + name
    let made = try ChildRun.run(
      ["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1.5"]
        + ["-c:v", "libx264", "-pix_fmt", "yuv420p"] + options + [path])
    #expect(made.status == 0, "ffmpeg \(options)")
    return path
  }

  func header(_ path: String) -> pk_photo_header {
    var header = pk_photo_header()
    _ = pk_read_photo_header(path, &header)
    return header
  }

  func taken(_ path: String) -> TakenDate {
    let name = Array(path.utf8.split(separator: UInt8(ascii: "/")).last!)
    return PhotoMetadataReader.read(
      path: PathBytes(path), name: name, modified: timespec(tv_sec: 1_583_064_000, tv_nsec: 0),
      latestDay: PhotoMetadataReader.latestBelievableDay()
    ).taken
  }

  @Test func theMoovAtTheEndGivesDurationSizeAndTheUTCCreationTime() throws {
    // ffmpeg writes the moov after the media data unless told otherwise.
    let path = try clip("VID_clip.mp4", ["-metadata", "creation_time=2023-06-14T08:15:00Z"])
    let read = header(path)
    #expect(read.is_video == 1 && read.format == 10)
    #expect(abs(read.duration_seconds - 1.5) < 0.05)
    #expect(read.width == 160 && read.height == 120 && read.rotation == 0)
    let date = taken(path)
    #expect(date.origin == .quicktime)
    // UTC with no position: on this machine's clock, and it says so.
    var expected = TakenDateParsing.utcSeconds(1_686_730_500, latestDay: 100_000, origin: .quicktime)
    expected?.zone = .thisMachine
    #expect(date == expected)
  }

  /// A traveller's Android clip records UTC; a photo's EXIF, Tokyo's
  /// clock: the clip goes on Tokyo's clock, the same day as the photo,
  /// whatever this machine's zone.
  @Test func aClipRecordedInUTCIsOnTheClockWhereItWasShot() throws {
    let path = try clip(
      "PXL_tokyo.mp4", ["-metadata", "creation_time=2024-02-29T23:30:00Z", "-metadata", "location=+35.6895+139.6917/"])
    guard ZoneData.table != nil else { return }
    let date = taken(path)
    #expect(date.label == "2024-03-01 08:30:00 +09:00")
    #expect(date.zone == .position(zone: "Asia/Tokyo"))
    #expect(date.originLabel == "video header; UTC+09:00 from the position, Asia/Tokyo")
    // At sea, far from any town: the longitude's nautical zone.
    let sea = try clip(
      "sea.mp4", ["-metadata", "creation_time=2024-02-29T23:30:00Z", "-metadata", "location=-30.0000-140.0000/"])
    #expect(taken(sea).label == "2024-02-29 14:30:00 -09:00" && taken(sea).zone == .sea)
  }

  @Test func applesCreationDateIsTheClipsOwnClock() throws {
    let path = try clip(
      "IMG_0001.MOV",
      [
        "-movflags", "use_metadata_tags+faststart", "-metadata", "creation_time=2022-12-31T14:59:58Z",
        "-metadata", "com.apple.quicktime.creationdate=2022-12-31T23:59:58+0900",
      ])
    let date = taken(path)
    #expect(date.origin == .quicktime && date.label == "2022-12-31 23:59:58 +09:00")
  }

  @Test func aPortraitPhoneVideoSaysItsRotation() throws {
    let path = try clip("PXL_20240601_101500123.mp4", [])
    let turned = try ChildRun.run(["/usr/bin/exiftool", "-q", "-overwrite_original", "-Rotation=90", path])
    #expect(turned.status == 0)
    let read = header(path)
    #expect(read.rotation == 90 && read.width == 160 && read.height == 120)
    // No creation time: the name's date.
    #expect(taken(path).origin == .fileName)
  }

  @Test func unsetClocksAndCutFilesGiveNoDate() throws {
    // 1970-01-01 in the movie header is an unset clock.
    let path = try clip("clip.mp4", ["-metadata", "creation_time=1970-01-01T00:00:00Z"])
    #expect(taken(path).origin == .fileTime)
    // Cut before its moov: no duration, no date, nothing read past the end.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let cut = root + "/cut.mp4"
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
    let read = header(cut)
    #expect(read.is_video == 1 && read.duration_seconds == 0 && read.width == 0)
    #expect(taken(cut).origin == .fileTime)
  }

  @Test func aPhonesPositionAndCameraAreRead() throws {
    // Android phones: ©xyz in udta (ffmpeg's "location" in a MOV); in an
    // MP4 ffmpeg writes 3GPP's loci box, in 16.16 degrees.
    let android = try clip("android.mov", ["-metadata", "location=+38.7139-009.1394/"])
    let read = header(android)
    #expect(read.has_gps == 1 && abs(read.latitude - 38.7139) < 1e-6 && abs(read.longitude + 9.1394) < 1e-6)
    let loci = header(try clip("loci.mp4", ["-metadata", "location=+38.7139-009.1394/"]))
    #expect(loci.has_gps == 1 && abs(loci.latitude - 38.7139) < 1e-4 && abs(loci.longitude + 9.1394) < 1e-4)
    // iPhones: QuickTime keys (ffmpeg writes them with use_metadata_tags).
    let iphone = try clip(
      "iphone.mov",
      [
        "-movflags", "use_metadata_tags", "-metadata",
        "com.apple.quicktime.location.ISO6709=-33.8568+151.2153+005.000/",
        "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
      ])
    let apple = header(iphone)
    #expect(apple.has_gps == 1 && abs(apple.latitude + 33.8568) < 1e-6 && abs(apple.longitude - 151.2153) < 1e-6)
    func text<T>(_ field: T) -> String {
      withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    #expect(text(apple.make) == "Apple" && text(apple.model) == "iPhone 15 Pro")
    // 0,0 is an unset position, and nonsense is none.
    #expect(header(try clip("zero.mov", ["-metadata", "location=+00.0000+000.0000/"])).has_gps == 0)
    #expect(header(try clip("bad.mov", ["-metadata", "location=+95.0000+10.0/"])).has_gps == 0)
  }

  @Test func theFactsPanelSaysLengthCodecAndFrameRate() throws {
    let path = try clip("facts.mp4", [])
    let facts = FactsReader.read(PathBytes(path), name: "facts.mp4")
    #expect(facts.format == "video")
    #expect(facts.pixelSize == PixelSize(width: 160, height: 120))
    let rows = Dictionary(facts.rows.map { ($0.label, $0.value) }, uniquingKeysWith: { a, _ in a })
    #expect(rows["Length"] == "0:02")
    #expect(rows["Codec"] == "H.264 (avc1)")
    #expect(rows["Frame rate"] == "10 fps")
    #expect(header(path).frame_rate == 10)
  }

  /// The index names a clip's place; so does its facts panel.
  @Test func theFactsPanelNamesAVideosPlaceAndCamera() throws {
    let path = try clip(
      "lisbon.mov",
      [
        "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.location.ISO6709=+38.7139-009.1394/",
        "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
      ])
    let facts = FactsReader.read(PathBytes(path), name: "lisbon.mov")
    #expect(facts.metadata.latitude.map { abs($0 - 38.7139) < 1e-6 } == true)
    #expect(facts.metadata.camera == "Apple iPhone 15 Pro")
    if PlaceData.finder != nil { #expect(facts.placeName == "Lisbon") }
  }

  @Test func creationTimesPastTheYear9999AreNoDateNotACrash() {
    // A fuzzed movie header held a creation time near 2^64 seconds.
    for seconds: UInt64 in [.max, UInt64(Int64.max), UInt64(Int64.max) + 2_082_844_800, 300_000_000_000] {
      #expect(
        TakenDateParsing.video(appleCreationDate: "", createdSince1904: seconds, day: "", latestDay: 30_000) == nil)
    }
    #expect(TakenDateParsing.utcSeconds(.max, latestDay: 30_000, origin: .takeout) == nil)
    #expect(TakenDateParsing.utcSeconds(-5, latestDay: 30_000, origin: .takeout) == nil)
    let far = PhotoMetadataReader.fileTime(timespec(tv_sec: .max, tv_nsec: 0))
    #expect(far.date.year == 1970 || far.date.year == 1969)
  }

  @Test func aHeaderClaimingAHundredThousandTracksCostsBoundedWork() {
    // A moov of 100,000 empty trak boxes (8 bytes each): the walk stops
    // after its bound instead of reading them all.
    var moov: [UInt8] = []
    for _ in 0..<100_000 { moov += ExifJPEG.be32(8) + Array("trak".utf8) }
    let ftyp = ExifJPEG.be32(16) + Array("ftypisom".utf8) + ExifJPEG.be32(0)
    let file = ftyp + ExifJPEG.be32(moov.count + 8) + Array("moov".utf8) + moov
    let path = root + "/tracks.mp4"
    _ = FileManager.default.createFile(atPath: path, contents: Data(file))
    let read = header(path)
    #expect(read.is_video == 1 && read.width == 0 && read.duration_seconds == 0)
  }
}
