import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Every date a camera, a phone or an export writes, in the order the
/// picker tries them: EXIF (the Exif IFD, then IFD0, also inside a RAF),
/// the photo's XMP, an XMP sidecar, IPTC, a Google Takeout JSON, the file
/// name, the file time.
@Suite struct DateOriginsTests {
  let root: String

  init() throws {
    root = NSTemporaryDirectory() + "dates-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data(bytes))
  }

  func write(_ name: String, text: String) { write(name, Array(text.utf8)) }

  func read(_ name: String, sidecars: SidecarPaths = SidecarPaths()) -> TakenDate {
    PhotoMetadataReader.read(
      path: PathBytes(root + "/" + name), name: Array(name.utf8), modified: timespec(tv_sec: 1_583_064_000, tv_nsec: 0),
      latestDay: PhotoMetadataReader.latestBelievableDay(), sidecars: sidecars
    ).taken
  }

  /// A JPEG whose only metadata is the segment given (after SOI).
  static func jpeg(segment marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, 0xD8, 0xFF, marker] + ExifJPEG.be16(payload.count + 2) + payload + [0xFF, 0xD9]
  }

  static func xmpPacket(_ body: String) -> [UInt8] {
    Array("http://ns.adobe.com/xap/1.0/\0".utf8)
      + Array(
        """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>
        \(body)
        </rdf:RDF></x:xmpmeta><?xpacket end="w"?>
        """.utf8)
  }

  /// IPTC-IIM DateCreated and TimeCreated in a Photoshop APP13.
  static func iptcSegment(date: String, time: String) -> [UInt8] {
    func dataset(_ number: UInt8, _ text: String) -> [UInt8] {
      [0x1C, 2, number] + ExifJPEG.be16(text.utf8.count) + Array(text.utf8)
    }
    let iim = dataset(55, date) + dataset(60, time)
    return Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + ExifJPEG.be32(iim.count) + iim
      + (iim.count % 2 == 1 ? [0] : [])
  }

  @Test func dateTimeOriginalInIFD0IsReadWhenTheExifIFDHasNone() {
    write("olympus.tif", ExifJPEG.tiffBytes(ifd0: [.init(tag: 0x9003, text: "2009:05:03 14:22:10")], exif: []))
    let taken = read("olympus.tif")
    #expect(taken.origin == .exif && taken.label == "2009-05-03 14:22:10")
    // Both: the Exif IFD's.
    write(
      "both.tif",
      ExifJPEG.tiffBytes(
        ifd0: [.init(tag: 0x9003, text: "2009:05:03 14:22:10")], exif: [.init(tag: 0x9003, text: "2010:01:01 00:00:01")]
      ))
    #expect(read("both.tif").label == "2010-01-01 00:00:01")
  }

  @Test func aFujifilmRAFIsDatedByTheJPEGInsideIt() {
    let preview = ExifJPEG.bytes(
      date: "2022:08:20 17:45:12", make: "FUJIFILM", model: "X-T4", width: 1920, height: 1280)
    var raf = Array("FUJIFILMCCD-RAW 0201FF129502X-T4".utf8)
    raf += [UInt8](repeating: 0, count: 84 - raf.count)
    raf += ExifJPEG.be32(148) + ExifJPEG.be32(preview.count)
    raf += [UInt8](repeating: 0, count: 148 - raf.count) + preview + [UInt8](repeating: 0x55, count: 4096)
    write("DSCF1022.RAF", raf)
    let metadata = PhotoMetadataReader.read(
      path: PathBytes(root + "/DSCF1022.RAF"), name: Array("DSCF1022.RAF".utf8), modified: timespec(),
      latestDay: PhotoMetadataReader.latestBelievableDay())
    #expect(metadata.taken.origin == .exif && metadata.taken.label == "2022-08-20 17:45:12")
    #expect(metadata.make == "FUJIFILM" && metadata.model == "X-T4")
    // The preview's size is not the RAW's.
    #expect(metadata.width == 0 && metadata.height == 0)
  }

  @Test func minoltaMRWAndCanonCRWAreDatedByTheirOwnHeaders() {
    // MRW: blocks; the TTW block holds a TIFF with the EXIF.
    let tiff = ExifJPEG.tiffBytes(
      ifd0: [.init(tag: 0x010F, text: "Minolta Co., Ltd.")], exif: [.init(tag: 0x9003, text: "2004:09:12 16:20:30")])
    var blocks: [UInt8] = Array("\0PRD".utf8) + ExifJPEG.be32(24) + [UInt8](repeating: 0, count: 24)
    blocks += Array("\0TTW".utf8) + ExifJPEG.be32(tiff.count) + tiff
    write(
      "PICT0001.MRW", Array("\0MRM".utf8) + ExifJPEG.be32(blocks.count) + blocks + [UInt8](repeating: 7, count: 512))
    let mrw = PhotoMetadataReader.read(
      path: PathBytes(root + "/PICT0001.MRW"), name: Array("PICT0001.MRW".utf8), modified: timespec(),
      latestDay: PhotoMetadataReader.latestBelievableDay())
    #expect(mrw.taken.origin == .exif && mrw.taken.label == "2004-09-12 16:20:30")
    #expect(mrw.make == "Minolta Co., Ltd.")
    // CRW: a root heap holding ImageProps (0x300A), holding TimeStamp
    // (0x180E); each heap's table at its end, its offset in the last 4 bytes.
    func le16(_ n: Int) -> [UInt8] { [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF)] }
    func le32(_ n: Int) -> [UInt8] { le16(n & 0xFFFF) + le16(n >> 16) }
    func heap(data: [UInt8], tag: Int) -> [UInt8] {
      data + le16(1) + le16(tag) + le32(data.count) + le32(0) + le32(data.count)
    }
    let seconds = Int(
      TakenDate.wallClock(CivilDate(year: 2003, month: 2, day: 3), hour: 4, minute: 5, second: 6) / 1000)
    let props = heap(data: le32(seconds) + le32(0) + le32(0), tag: 0x180E)
    var crw: [UInt8] = Array("II".utf8) + le32(26) + Array("HEAPCCDR".utf8) + le16(1) + le16(2)
    crw += [UInt8](repeating: 0, count: 26 - crw.count) + heap(data: props, tag: 0x300A)
    write("CRW_0001.CRW", crw)
    let date = read("CRW_0001.CRW")
    #expect(date.origin == .exif && date.label == "2003-02-03 04:05:06")
  }

  @Test func aSigmaX3FIsDatedByItsProperties() {
    // The property list (UTF-16 names and values), then the directory,
    // whose offset is the file's last four bytes.
    func le32(_ n: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
    let strings = ["TIME", "1259584496", "CAMMANUF", "SIGMA", "CAMMODEL", "SIGMA DP2"]
    var chars: [UInt8] = []
    var positions: [Int] = []
    for text in strings {
      positions.append(chars.count / 2)
      for unit in text.utf16 + [0] { chars += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    }
    var properties = Array("SECp".utf8) + le32(0x20000) + le32(3) + le32(0) + le32(0) + le32(chars.count / 2)
    for index in stride(from: 0, to: positions.count, by: 2) {
      properties += le32(positions[index]) + le32(positions[index + 1])
    }
    properties += chars
    var x3f = Array("FOVb".utf8) + le32(0x20002) + [UInt8](repeating: 0, count: 56)
    let at = x3f.count
    x3f += properties
    let directory = x3f.count
    x3f += Array("SECd".utf8) + le32(0x20000) + le32(1) + le32(at) + le32(properties.count) + Array("PROP".utf8)
    x3f += le32(directory)
    write("SDIM0001.X3F", x3f)
    let read = PhotoMetadataReader.read(
      path: PathBytes(root + "/SDIM0001.X3F"), name: Array("SDIM0001.X3F".utf8), modified: timespec(),
      latestDay: PhotoMetadataReader.latestBelievableDay())
    #expect(read.taken.origin == .exif && read.taken.label == "2009-11-30 12:34:56")
    #expect(read.make == "SIGMA" && read.model == "SIGMA DP2")
    // A directory pointing past the end, or a list longer than its section,
    // is no date.
    write("cut.X3F", Array(x3f.dropLast(4)) + le32(x3f.count + 100))
    #expect(self.read("cut.X3F").origin == .fileTime)
  }

  @Test func aPhotosOwnXMPDatesIt() {
    write(
      "export.jpg",
      Self.jpeg(
        segment: 0xE1,
        Self.xmpPacket(
          #"<rdf:Description xmp:CreateDate="2019-01-01T00:00:00" exif:DateTimeOriginal="2018-07-21T19:03:44.25+02:00"/>"#
        )))
    let taken = read("export.jpg")
    #expect(taken.origin == .xmp && taken.label == "2018-07-21 19:03:44.250 +02:00")
    // The element form; photoshop:DateCreated before xmp:CreateDate.
    write(
      "element.jpg",
      Self.jpeg(
        segment: 0xE1,
        Self.xmpPacket(
          "<rdf:Description><xmp:CreateDate>2020-02-02T02:02:02Z</xmp:CreateDate>"
            + "<photoshop:DateCreated>2017-03-04T05:06</photoshop:DateCreated></rdf:Description>")))
    #expect(read("element.jpg").label == "2017-03-04 05:06:00")
  }

  /// Photo Mechanic writes photoshop:DateCreated as a day alone and the
  /// time in IPTC: the day and time win over midnight.
  @Test func xmpsDayAloneYieldsToIPTCsDateAndTimeOfTheSameDay() {
    let xmp = Self.xmpPacket(
      #"<rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:DateCreated="2015-09-10"/>"#)
    let bytes =
      [0xFF, 0xD8] + Array(Self.jpeg(segment: 0xE1, xmp).dropFirst(2).dropLast(2))
      + Array(Self.jpeg(segment: 0xED, Self.iptcSegment(date: "20150910", time: "062751+0000")).dropFirst(2))
    write("mechanic.jpg", bytes)
    let taken = read("mechanic.jpg")
    #expect(taken.origin == .iptc && taken.label == "2015-09-10 06:27:51 +00:00")
    // Another day in IPTC: XMP's day stands.
    let other =
      [0xFF, 0xD8] + Array(Self.jpeg(segment: 0xE1, xmp).dropFirst(2).dropLast(2))
      + Array(Self.jpeg(segment: 0xED, Self.iptcSegment(date: "20150911", time: "062751+0000")).dropFirst(2))
    write("other.jpg", other)
    #expect(read("other.jpg").origin == .xmp && read("other.jpg").label == "2015-09-10")
  }

  /// Takeout's JSON places a photo with no GPS of its own, and its UTC
  /// time goes on that place's clock; 0,0 is no place.
  @Test func takeoutsGeoDataPlacesThePhoto() {
    write("trip.jpg", ExifJPEG.bytes())
    // 29 Feb 2024 23:30:00 UTC in Tokyo: 1 March, 08:30 there.
    write(
      "trip.jpg.json",
      text: #"{"photoTakenTime": {"timestamp": "1709249400"}, "geoData": {"latitude": 35.6895, "longitude": 139.6917}}"#
    )
    let sidecars = SidecarPaths(takeout: PathBytes(root + "/trip.jpg.json"))
    let metadata = PhotoMetadataReader.read(
      path: PathBytes(root + "/trip.jpg"), name: Array("trip.jpg".utf8), modified: timespec(tv_sec: 0, tv_nsec: 0),
      latestDay: PhotoMetadataReader.latestBelievableDay(), sidecars: sidecars)
    #expect(metadata.latitude == 35.6895 && metadata.longitude == 139.6917)
    if ZoneData.table != nil { #expect(metadata.taken.label == "2024-03-01 08:30:00 +09:00") }
    write(
      "zero.jpg.json",
      text: #"{"photoTakenTime": {"timestamp": "1709249400"}, "geoData": {"latitude": 0.0, "longitude": 0.0}}"#)
    write("zero.jpg", ExifJPEG.bytes())
    let zero = PhotoMetadataReader.read(
      path: PathBytes(root + "/zero.jpg"), name: Array("zero.jpg".utf8), modified: timespec(tv_sec: 0, tv_nsec: 0),
      latestDay: PhotoMetadataReader.latestBelievableDay(),
      sidecars: SidecarPaths(takeout: PathBytes(root + "/zero.jpg.json")))
    #expect(zero.latitude == nil)
  }

  @Test func iptcDatesAPhotoWithoutExifOrXMP() {
    write("news.jpg", Self.jpeg(segment: 0xED, Self.iptcSegment(date: "20150910", time: "083000-0400")))
    let taken = read("news.jpg")
    #expect(taken.origin == .iptc && taken.label == "2015-09-10 08:30:00 -04:00")
  }

  @Test func sidecarsAreFoundByEveryNameTheirWritersGive() {
    let names = [
      "a.jpg", "a.jpg.xmp", "b.JPG", "b.xmp", "c.jpg", "c.jpg.json", "d.jpg", "d.jpg.supplemental-metadata.json",
      "e(1).jpg", "e.jpg(1).json",
      "PXL_20240601_101500123.PORTRAIT.ORIGINAL_long_name.jpg",
      "PXL_20240601_101500123.PORTRAIT.ORIGINAL_long_name.jpg.supplemen.json",
      "A_very_long_file_name_from_a_phone_export_000001.jpeg", "A_very_long_file_name_from_a_phone_export_0000.json",
      "f.jpg",
    ].map { Array($0.utf8) }
    let sidecars = Sidecars(names: names)
    func found(_ photo: String) -> [String?] {
      let found = sidecars.sidecars(of: Array(photo.utf8))
      return [found.xmp, found.takeout].map { $0.map { String(decoding: $0, as: UTF8.self) } }
    }
    #expect(found("a.jpg") == ["a.jpg.xmp", nil])
    #expect(found("b.JPG") == ["b.xmp", nil])
    #expect(found("c.jpg") == [nil, "c.jpg.json"])
    #expect(found("d.jpg") == [nil, "d.jpg.supplemental-metadata.json"])
    #expect(found("e(1).jpg") == [nil, "e.jpg(1).json"])
    #expect(
      found("PXL_20240601_101500123.PORTRAIT.ORIGINAL_long_name.jpg") == [
        nil, "PXL_20240601_101500123.PORTRAIT.ORIGINAL_long_name.jpg.supplemen.json",
      ])
    #expect(
      found("A_very_long_file_name_from_a_phone_export_000001.jpeg") == [
        nil, "A_very_long_file_name_from_a_phone_export_0000.json",
      ])
    #expect(found("f.jpg") == [nil, nil])
  }

  @Test func sidecarsDateAPhotoWithoutDatesOfItsOwnInTheirOrder() {
    write("plain.jpg", ExifJPEG.bytes())
    write(
      "plain.jpg.xmp", text: "<x:xmpmeta><rdf:Description exif:DateTimeOriginal=\"2016-05-05T12:00:00\"/></x:xmpmeta>")
    // 1 Aug 2021 10:00:00 UTC.
    write("plain.jpg.json", text: #"{"title": "plain.jpg", "photoTakenTime": {"timestamp": "1627812000"}}"#)
    let xmp = SidecarPaths(xmp: PathBytes(root + "/plain.jpg.xmp"), takeout: PathBytes(root + "/plain.jpg.json"))
    #expect(read("plain.jpg", sidecars: xmp).origin == .xmpSidecar)
    #expect(read("plain.jpg", sidecars: xmp).label == "2016-05-05 12:00:00")
    let takeout = SidecarPaths(takeout: PathBytes(root + "/plain.jpg.json"))
    let taken = read("plain.jpg", sidecars: takeout)
    #expect(taken.origin == .takeout)
    // UTC seconds, on this machine's clock.
    #expect(taken == TakenDateParsing.utcSeconds(1_627_812_000, latestDay: 100_000, origin: .takeout))
    // The photo's own EXIF comes first.
    write("camera.jpg", ExifJPEG.bytes(date: "2023:06:14 10:15:00"))
    #expect(read("camera.jpg", sidecars: xmp).origin == .exif)
  }

  @Test func aScanReadsSidecarsAndAChangedSidecarDatesItsPhotoAgain() throws {
    write("IMG_0001.jpg", ExifJPEG.bytes())
    write("IMG_0002.jpg", ExifJPEG.bytes())
    write("IMG_0001.jpg.supplemental-metadata.json", text: #"{"photoTakenTime": {"timestamp": "1627812000"}}"#)
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    func scan() throws -> ScanSummary {
      try index.withDatabase { database throws(SQLiteError) in
        try LibraryScanner(database: database, roots: [PathBytes(root)], placeNamer: nil).scan()
      }
    }
    func origins() throws -> [String: TakenDate.Origin] {
      Dictionary(
        uniqueKeysWithValues: try index.photos(LibraryFilter(roots: [PathBytes(root)]), offset: 0, limit: 10).map {
          (String(decoding: $0.name, as: UTF8.self), $0.taken.origin)
        })
    }
    _ = try scan()
    #expect(try origins() == ["IMG_0001.jpg": .takeout, "IMG_0002.jpg": .fileTime])
    #expect(try scan().read == 0)
    // darktable writes a sidecar for the second; the first's JSON goes.
    write("IMG_0002.jpg.xmp", text: #"<x:xmpmeta><rdf:Description xmp:CreateDate="2011-11-11T11:11:11"/></x:xmpmeta>"#)
    try FileManager.default.removeItem(atPath: root + "/IMG_0001.jpg.supplemental-metadata.json")
    #expect(try scan().read == 2)
    #expect(try origins() == ["IMG_0001.jpg": .fileTime, "IMG_0002.jpg": .xmpSidecar])
    #expect(try index.originCounts(LibraryFilter(roots: [PathBytes(root)]))[.xmpSidecar] == 1)
  }

  @Test func aDateAheadOfTheClockIsTakenOnceTheClockHasPassedIt() throws {
    // A camera's clock three days ahead: refused today, the name's date used.
    let today = PhotoMetadataReader.latestBelievableDay() - 1
    let ahead = CivilDate(dayNumber: today + 3)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let exif = "\(ahead.year):\(two(ahead.month)):\(two(ahead.day)) 09:30:00"
    write("IMG_20200301_120000.jpg", ExifJPEG.bytes(date: exif))
    let index = LibraryIndex(path: root + "/.cache/library.sqlite")
    func scan(latestDay: Int) throws -> ScanSummary {
      try index.withDatabase { database throws(SQLiteError) in
        let scanner = LibraryScanner(database: database, roots: [PathBytes(root)], placeNamer: nil)
        scanner.latestDay = latestDay
        return try scanner.scan()
      }
    }
    func taken() throws -> TakenDate? {
      try index.photos(LibraryFilter(roots: [PathBytes(root)]), offset: 0, limit: 1).first?.taken
    }
    _ = try scan(latestDay: today + 1)
    #expect(try taken()?.origin == .fileName)
    _ = try scan(latestDay: today + 2)
    #expect(try taken()?.origin == .fileName)
    // Four days on: the camera's date, and the file is not read again.
    let later = try scan(latestDay: today + 4)
    #expect(later.read == 0)
    #expect(try taken()?.origin == .exif && taken()?.day == today + 3)
    #expect(try index.dayCounts(LibraryFilter(roots: [PathBytes(root)])).map(\.day) == [today + 3])
  }

  @Test func xmpAndIptcDateForms() {
    let latest = PhotoMetadataReader.latestBelievableDay()
    #expect(
      TakenDateParsing.xmp("2023-06-14T10:15:00.5Z", latestDay: latest)?.label == "2023-06-14 10:15:00.500 +00:00")
    // A day alone is shown as a day, not as midnight.
    #expect(TakenDateParsing.xmp("2023-06-14", latestDay: latest)?.label == "2023-06-14")
    #expect(TakenDateParsing.xmp("2023-06-14", latestDay: latest)?.originLabel == "day only, XMP")
    #expect(TakenDateParsing.xmp("2023:06:14 10:15:00", latestDay: latest)?.label == "2023-06-14 10:15:00")
    #expect(TakenDateParsing.xmp("0000-00-00T00:00:00", latestDay: latest) == nil)
    #expect(TakenDateParsing.xmp("garbage", latestDay: latest) == nil)
    #expect(TakenDateParsing.iptc(date: "20230614", time: "", latestDay: latest)?.label == "2023-06-14")
    #expect(TakenDateParsing.iptc(date: "2023061", time: "", latestDay: latest) == nil)
  }
}
