import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The time zones the picker ships (Resources/zones.bin) for the places of
/// Resources/places.bin, looked up the way a video's position will be: the
/// zone of the nearest place.
@Suite struct ZoneTableTests {
  static let path: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent("Resources/zones.bin").path
  }()
  static let table: ZoneTable? = ZoneTable(path: path)

  static func zones() throws -> ZoneTable { try #require(table, "Resources/zones.bin") }

  /// The zone of the place nearest a position.
  static func zone(latitude: Double, longitude: Double) throws -> String? {
    let finder = try PlaceFinderTests.finder()
    let nearest = try #require(
      finder.places(nearLatitude: latitude, longitude: longitude, within: PlaceFinder.cityRadius).first,
      "a place near \(latitude), \(longitude)")
    return try zones().zoneName(ofPlace: nearest.index)
  }

  @Test func aCitysNearestPlaceHasTheCitysZone() throws {
    for (latitude, longitude, zone) in [
      (38.71667, -9.13333, "Europe/Lisbon"), (35.6895, 139.69171, "Asia/Tokyo"),
      (40.71427, -74.00597, "America/New_York"), (39.73915, -104.9847, "America/Denver"),
    ] {
      let found = try Self.zone(latitude: latitude, longitude: longitude)
      #expect(found == zone, "at \(latitude), \(longitude)")
    }
  }

  @Test func townsAcrossABorderKeepTheirOwnClocks() throws {
    // Tornio (Finland) and Haparanda (Sweden), 1.5 km and an hour apart;
    // Windsor (Ontario) and Detroit (Michigan), across the river.
    for (latitude, longitude, zone) in [
      (65.84811, 24.14662, "Europe/Helsinki"), (65.83549, 24.13676, "Europe/Stockholm"),
      (42.30008, -83.01654, "America/Toronto"), (42.33143, -83.04575, "America/Detroit"),
    ] {
      let found = try Self.zone(latitude: latitude, longitude: longitude)
      #expect(found == zone, "at \(latitude), \(longitude)")
    }
  }

  @Test func theZonesWereMadeForThePlacesShipped() throws {
    let zones = try Self.zones()
    let places = try #require(PlaceFinderTests.table, "Resources/places.bin")
    #expect(zones.fits(places))
    let placesPath = URL(fileURLWithPath: Self.path).deletingLastPathComponent().appendingPathComponent("places.bin")
    let checksum = Self.crc32(try Data(contentsOf: placesPath))
    #expect(checksum == zones.placesChecksum, "places.bin was made again: run scripts/make-zones.py")
    #expect(!zones.release.isEmpty)
    #expect((0..<zones.count).allSatisfy { zones.zoneName(ofPlace: $0) != nil }, "every place has a zone")
  }

  @Test func everyZoneIsOneFoundationKnows() throws {
    let zones = try Self.zones()
    #expect(zones.zoneCount > 300)
    for zone in 0..<zones.zoneCount {
      let name = try #require(zones.zoneName(zone))
      #expect(TimeZone(identifier: name) != nil, "\(name)")
    }
    #expect(zones.zoneName(zones.zoneCount) == nil && zones.zoneName(-1) == nil)
  }

  @Test func anIndexPastTheTableHasNoZone() throws {
    let zones = try Self.zones()
    #expect(zones.zoneName(ofPlace: -1) == nil)
    #expect(zones.zoneName(ofPlace: zones.count) == nil)
  }

  @Test func aFileThatIsNotTheTableIsNil() throws {
    let good = try Data(contentsOf: URL(fileURLWithPath: Self.path))
    let folder = TemporaryFolder()
    func table(_ bytes: Data) -> ZoneTable? {
      let path = folder.url.appendingPathComponent("zones-\(UUID().uuidString).bin").path
      _ = FileManager.default.createFile(atPath: path, contents: bytes)
      return ZoneTable(path: path)
    }
    #expect(table(good) != nil, "a copy reads")
    var magic = good
    magic[magic.startIndex + 7] = UInt8(ascii: "2")
    #expect(table(magic) == nil, "PKZONES2")
    #expect(table(good.dropLast()) == nil, "a byte short")
    #expect(table(good + Data([0])) == nil, "a byte long")
    #expect(table(good.prefix(20)) == nil, "shorter than the header")
    #expect(table(Data()) == nil)
    #expect(ZoneTable(path: folder.url.appendingPathComponent("missing.bin").path) == nil)
    let places = URL(fileURLWithPath: Self.path).deletingLastPathComponent().appendingPathComponent("places.bin")
    #expect(ZoneTable(path: places.path) == nil, "places.bin is no zones table")
  }

  /// zlib's CRC-32, as scripts/make-zones.py keeps it.
  static func crc32(_ data: Data) -> UInt32 {
    let table = (0..<256).map { value -> UInt32 in
      var crc = UInt32(value)
      for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
      return crc
    }
    var crc: UInt32 = 0xFFFF_FFFF
    data.withUnsafeBytes { raw in
      for byte in raw { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
