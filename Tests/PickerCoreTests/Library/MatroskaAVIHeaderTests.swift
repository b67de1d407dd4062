import CImaging
import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The header reader on Matroska, WebM and AVI files ffmpeg makes: the
/// length, the video track's size, codec and frame rate, and the date
/// (Matroska's DateUTC as a movie header's UTC time; an AVI camera's IDIT
/// or INFO's ICRD as an EXIF date on the camera's clock). Cut files and
/// hostile EBML trees (deep, huge, of unknown sizes) read without harm,
/// and the walks stop at their bounds.
@Suite struct MatroskaAVIHeaderTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "matroska-avi-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  /// A 160x120 test pattern at 25 fps made by ffmpeg with these options.
  func clip(_ name: String, seconds: Int = 5, _ options: [String]) throws -> String {
    let path = root + "/" + name
    let made = try ChildRun.run(
      ["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=\(seconds):size=160x120:rate=25"]
        + options + [path])
    #expect(made.status == 0, "ffmpeg \(options)")
    return path
  }

  func write(_ name: String, _ bytes: [UInt8]) -> String {
    let path = root + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  func header(_ path: String) -> pk_photo_header {
    var header = pk_photo_header()
    _ = pk_read_photo_header(path, &header)
    return header
  }

  func headerOfBytes(_ bytes: [UInt8]) -> pk_photo_header {
    var header = pk_photo_header()
    _ = bytes.withUnsafeBufferPointer { pk_read_photo_header_bytes($0.baseAddress, $0.count, &header) }
    return header
  }

  func taken(_ path: String) -> TakenDate {
    let name = Array(path.utf8.split(separator: UInt8(ascii: "/")).last!)
    return PhotoMetadataReader.read(
      path: PathBytes(path), name: name, modified: timespec(tv_sec: 1_583_064_000, tv_nsec: 0),
      latestDay: PhotoMetadataReader.latestBelievableDay()
    ).taken
  }

  func text<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }

  func rows(_ path: String) -> [String: String] {
    let facts = FactsReader.read(PathBytes(path), name: String(path.split(separator: "/").last!))
    return Dictionary(facts.rows.map { ($0.label, $0.value) }, uniquingKeysWith: { a, _ in a })
  }

  // MARK: EBML and RIFF by hand

  static func idBytes(_ id: UInt32) -> [UInt8] {
    let count = (32 - id.leadingZeroBitCount + 7) / 8
    return (0..<count).reversed().map { UInt8(truncatingIfNeeded: id >> (UInt32($0) * 8)) }
  }

  /// An element with an 8-byte size.
  static func element(_ id: UInt32, _ body: [UInt8]) -> [UInt8] {
    let size: [UInt8] = (0..<7).reversed().map { UInt8(truncatingIfNeeded: body.count >> ($0 * 8)) }
    return idBytes(id) + [0x01] + size + body
  }

  /// An element's header with the size all ones: unknown, as when streamed.
  static func unknownSize(_ id: UInt32) -> [UInt8] { idBytes(id) + [0xFF] }

  static let ebmlHeader = element(0x1A45_DFA3, element(0x4282, Array("matroska".utf8)))
  /// Info with a Duration of 2,500 ticks of the default 1 ms: 2.5 s.
  static let info = element(
    0x1549_A966, element(0x4489, withUnsafeBytes(of: (2500.0).bitPattern.bigEndian) { Array($0) }))

  static func le32(_ n: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: n >> ($0 * 8)) } }

  /// A camera's IDIT chunk in LIST hdrl, written over the JUNK chunk ffmpeg
  /// leaves there, so that no offset moves. False when there is none.
  static func insertIDIT(_ text: String, into bytes: inout [UInt8]) -> Bool {
    func le32(at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << ($1 * 8) } }
    guard bytes.count > 24, Array(bytes[12..<16]) == Array("LIST".utf8), Array(bytes[20..<24]) == Array("hdrl".utf8)
    else { return false }
    let end = min(20 + le32(at: 16), bytes.count)
    let raw = Array(text.utf8) + [0]
    let idit = Array("IDIT".utf8) + Self.le32(raw.count) + raw + (raw.count % 2 == 1 ? [0] : [])
    var at = 24
    while at + 8 <= end {
      let size = le32(at: at + 4)
      if Array(bytes[at..<(at + 4)]) == Array("JUNK".utf8) && size >= idit.count && at + 8 + size <= end {
        let rest = size - idit.count
        bytes.replaceSubrange(
          at..<(at + 8 + size), with: idit + Array("JUNK".utf8) + Self.le32(rest) + [UInt8](repeating: 0, count: rest))
        return true
      }
      at += 8 + size + (size & 1)
    }
    return false
  }

  // MARK: Files ffmpeg makes

  @Test func aWebMAndAnMKVSayLengthSizeCodecRateAndTheirUTCDate() throws {
    let created = ["-metadata", "creation_time=2024-02-29T23:30:00Z"]
    let webm = try clip("clip.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"] + created)
    let mkv = try clip("clip.mkv", ["-c:v", "libx264", "-pix_fmt", "yuv420p"] + created)
    for (path, codec) in [(webm, "vp09"), (mkv, "avc1")] {
      let read = header(path)
      #expect(read.is_video == 1 && read.format == 10, "\(path)")
      #expect(abs(read.duration_seconds - 5) < 0.01, "\(path)")
      #expect(read.width == 160 && read.height == 120 && read.rotation == 0, "\(path)")
      #expect(text(read.video_codec) == codec && read.frame_rate == 25, "\(path)")
      // DateUTC: UTC, on this machine's clock, as an MP4's creation time.
      let date = taken(path)
      #expect(date.origin == .quicktime, "\(path)")
      var expected = TakenDateParsing.utcSeconds(1_709_249_400, latestDay: 100_000, origin: .quicktime)
      expected?.zone = .thisMachine
      #expect(date == expected)
      // The in-memory entry point reads the same.
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      var fromBytes = headerOfBytes(bytes)
      var fromFile = read
      let same = memcmp(&fromBytes, &fromFile, MemoryLayout<pk_photo_header>.size) == 0
      #expect(same, "\(path)")
    }
    let metadata = PhotoMetadataReader.read(
      path: PathBytes(mkv), name: Array("clip.mkv".utf8), modified: timespec(tv_sec: 0, tv_nsec: 0),
      latestDay: PhotoMetadataReader.latestBelievableDay())
    #expect(metadata.isVideo && metadata.videoSeconds.map { abs($0 - 5) < 0.01 } == true)
    #expect(metadata.width == 160 && metadata.height == 120 && metadata.orientation == 1)
    let facts = rows(webm)
    #expect(facts["Length"] == "0:05" && facts["Codec"] == "VP9 (vp09)" && facts["Frame rate"] == "25 fps")
    #expect(rows(mkv)["Codec"] == "H.264 (avc1)")
  }

  @Test func anMKVWithoutADateIsDatedByItsName() throws {
    // ffmpeg writes no DateUTC without a creation time.
    let path = try clip("VID_20230614_081500.mkv", seconds: 1, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    #expect(header(path).created_since_1904 == 0)
    #expect(taken(path).origin == .fileName)
  }

  @Test func anAVISaysItsLengthAndTheCamerasDate() throws {
    // ffmpeg writes INFO's ICRD from "date".
    let path = try clip("MVI_0001.AVI", ["-c:v", "mjpeg", "-metadata", "date=2024-02-29 23:30:00"])
    let read = header(path)
    #expect(read.is_video == 1 && read.format == 10)
    #expect(abs(read.duration_seconds - 5) < 0.01 && read.frame_rate == 25)
    #expect(read.width == 160 && read.height == 120)
    #expect(text(read.video_codec) == "MJPG" && text(read.date_original) == "2024:02:29 23:30:00")
    // The camera's clock, with no offset: as an EXIF date.
    let date = taken(path)
    #expect(date.origin == .quicktime && date.label == "2024-02-29 23:30:00")
    let facts = rows(path)
    #expect(facts["Length"] == "0:05" && facts["Codec"] == "Motion JPEG (MJPG)" && facts["Frame rate"] == "25 fps")
    // A camera's IDIT in LIST hdrl, in C's ctime form, comes before ICRD.
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let inserted = Self.insertIDIT("Fri Mar 01 07:45:12 2024\n", into: &bytes)
    #expect(inserted)
    let idit = write("MVI_0002.AVI", bytes)
    #expect(text(header(idit).date_original) == "2024:03:01 07:45:12")
    #expect(taken(idit).label == "2024-03-01 07:45:12")
    // MPEG-4 Part 2 as Xvid tags it, and EXIF's own form of IDIT.
    let xvid = try clip("xvid.avi", seconds: 2, ["-c:v", "mpeg4", "-vtag", "XVID"])
    var xvidBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: xvid)))
    let insertedInXvid = Self.insertIDIT("2008:01:02 02:03:55", into: &xvidBytes)
    #expect(insertedInXvid)
    let tagged = write("xvid_idit.avi", xvidBytes)
    #expect(text(header(tagged).date_original) == "2008:01:02 02:03:55")
    #expect(abs(header(tagged).duration_seconds - 2) < 0.01)
    #expect(rows(tagged)["Codec"] == "MPEG-4 Part 2 (XVID)")
  }

  // MARK: Cut and hostile files

  @Test func aCutMKVReadsWhatItHoldsAndNothingPast() throws {
    let path = try clip("whole.mkv", seconds: 2, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let codec = Array("V_MPEG4".utf8)
    let found = (0..<(bytes.count - codec.count)).first(where: { Array(bytes[$0..<($0 + codec.count)]) == codec })
    let inTracks = try #require(found)
    for length in [0, 3, 4, 30, 200, inTracks + 4, bytes.count / 2] {
      let cut = Array(bytes.prefix(length))
      let read = header(write("cut-\(length).mkv", cut))
      #expect(read.is_video == (length >= 4 ? 1 : 0), "\(length)")
      var fromBytes = headerOfBytes(cut)
      var fromFile = read
      let same = memcmp(&fromBytes, &fromFile, MemoryLayout<pk_photo_header>.size) == 0
      #expect(same, "\(length)")
    }
    // Cut in Tracks: Info (before it) says the length; no track is taken.
    let inTracksRead = header(root + "/cut-\(inTracks + 4).mkv")
    #expect(abs(inTracksRead.duration_seconds - 2) < 0.01 && inTracksRead.width == 0)
    // Cut in the Clusters: all of the header was there.
    let half = header(root + "/cut-\(bytes.count / 2).mkv")
    #expect(half.width == 160 && abs(half.duration_seconds - 2) < 0.01 && half.frame_rate == 25)
  }

  @Test func hostileEBMLTreesReadWithoutHarmWithinTheirBounds() {
    let segment = Self.unknownSize(0x1853_8067)
    // Videos in Videos, each of unknown size, 100,000 deep: the reader
    // goes one level into Video, no deeper.
    let deep =
      Self.ebmlHeader + segment + Self.info + Self.unknownSize(0x1654_AE6B) + Self.unknownSize(0xAE)
      + Self.element(0x83, [1])
      + Array([[UInt8]](repeating: Self.unknownSize(0xE0), count: 100_000).joined()) + Self.element(0xB0, [0x40])
    // 100,000 Void elements before Info: the walk's bound on elements ends
    // it before Info, as a bound on reads would.
    let voids =
      Self.ebmlHeader + segment + Array([[UInt8]](repeating: [0xEC, 0x80], count: 100_000).joined()) + Self.info
    // Sizes past the file and near 2^56, a SeekHead pointing past 2^62 and
    // at itself, an ID of five bytes.
    let seekHead = Self.element(
      0x114D_9B74,
      Self.element(
        0x4DBB,
        Self.element(0x53AB, [0x16, 0x54, 0xAE, 0x6B])
          + Self.element(0x53AC, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
        + Self.element(0x4DBB, Self.element(0x53AB, [0x11, 0x4D, 0x9B, 0x74]) + Self.element(0x53AC, [0])))
    var huge: [UInt8] = Self.ebmlHeader
    huge += [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
    huge += seekHead
    huge += [0x15, 0x49, 0xA9, 0x66, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
    huge += [0x08, 1, 2, 3, 4, 0x81, 0]
    // A Cluster of unknown size first: skipped, never walked, so the Info
    // after its blocks is not found (a streamed file's Info comes first).
    let cluster =
      Self.ebmlHeader + segment + Self.unknownSize(0x1F43_B675)
      + Array([[UInt8]](repeating: [0xA3, 0x84, 0x81, 0, 0, 0], count: 10_000).joined()) + Self.info
    let cases: [(String, [UInt8], Double)] = [
      ("deep.mkv", deep, 2.5), ("voids.mkv", voids, 0), ("huge.mkv", huge, 0), ("cluster.mkv", cluster, 0),
    ]
    for (name, bytes, duration) in cases {
      let read = header(write(name, bytes))
      #expect(read.is_video == 1 && read.format == 10, "\(name)")
      #expect(read.duration_seconds == duration && read.width == 0 && read.height == 0, "\(name)")
      let inMemory = headerOfBytes(bytes)
      #expect(inMemory.duration_seconds == duration && inMemory.width == 0, "\(name)")
      // Every cut of the first bytes too.
      for length in stride(from: 0, to: min(bytes.count, 400), by: 7) { _ = headerOfBytes(Array(bytes.prefix(length))) }
    }
  }

  @Test func hostileAVIListsReadWithoutHarm() {
    // A RIFF of size 0 (a recorder stopped), 100,000 empty strl lists in
    // hdrl, a list larger than its parent, avih cut short.
    var hdrl = Array("hdrl".utf8)
    for _ in 0..<100_000 { hdrl += Array("LIST".utf8) + Self.le32(4) + Array("strl".utf8) }
    hdrl += Array("LIST".utf8) + Self.le32(0x7FFF_FFFF) + Array("odml".utf8)
    let riff =
      Array("RIFF".utf8) + Self.le32(0) + Array("AVI ".utf8) + Array("LIST".utf8) + Self.le32(hdrl.count) + hdrl
      + Array("avih".utf8) + Self.le32(56)
    let read = header(write("lists.avi", riff))
    #expect(read.is_video == 1 && read.format == 10 && read.width == 0 && read.duration_seconds == 0)
    // IDIT texts that are no date, or half of one.
    for idit in ["", "Wed", "Wed Jan", "Xyz Abc 02 02:03:55 2008", "2008:13:02 02:03:55", "2008:01:02 25:00", "9"] {
      var bytes = Array("RIFF".utf8) + Self.le32(0) + Array("AVI ".utf8)
      let raw = Array(idit.utf8)
      bytes += Array("LIST".utf8) + Self.le32(4 + 8 + raw.count + raw.count % 2) + Array("INFO".utf8)
      bytes += Array("IDIT".utf8) + Self.le32(raw.count) + raw + (raw.count % 2 == 1 ? [0] : [])
      #expect(text(headerOfBytes(bytes).date_original) == "", "\(idit)")
    }
  }
}
