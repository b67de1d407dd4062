import Foundation

/// The IANA time zone of each place of `Resources/places.bin`, from
/// `Resources/zones.bin` (scripts/make-zones.py), read in place like
/// `PlaceTable`: the file is mapped and nothing is parsed at load. A
/// video's position names its nearest place; that place's zone puts the
/// video's UTC time on the local clock.
public final class ZoneTable: Sendable {
  static let headerSize = 32
  static let none = 0xFFFF

  private let data: Data
  /// Places, as many as places.bin's (`fits(_:)`).
  public let count: Int
  /// Distinct zones.
  public let zoneCount: Int
  /// CRC-32 (zlib's) of the places.bin the zones were made for.
  public let placesChecksum: UInt32
  /// The time-zone boundaries' release ("2026c"), for the version line.
  public let release: String
  private let zonesAt: Int
  private let stringsAt: Int

  /// Maps the table at `path`; nil when it is missing or not a table.
  public init?(path: String) {
    guard FileManager.default.isReadableFile(atPath: path),
      let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
      data.count >= Self.headerSize, data.prefix(8).elementsEqual("PKZONES1".utf8)
    else { return nil }
    self.data = data
    func u32(_ at: Int) -> Int { Int(data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }) }
    count = u32(8)
    zoneCount = u32(12)
    let stringBytes = u32(16)
    placesChecksum = UInt32(u32(20))
    release = String(decoding: data[(data.startIndex + 24)..<(data.startIndex + 32)].prefix { $0 != 0 }, as: UTF8.self)
    // A place's u16, then padding to a multiple of 4 before the zones' offsets.
    zonesAt = Self.headerSize + (count * 2 + 3) / 4 * 4
    stringsAt = zonesAt + zoneCount * 4
    guard zoneCount < Self.none, data.count == stringsAt + stringBytes else { return nil }
  }

  /// Whether the zones were made for this places table: as many places.
  /// (The checksum is compared by the tests, not at each start.)
  public func fits(_ places: PlaceTable) -> Bool { count == places.count }

  /// The zone of place `index` of places.bin ("Europe/Lisbon"); nil for a
  /// place without one or an index the table does not have.
  public func zoneName(ofPlace index: Int) -> String? {
    guard index >= 0, index < count else { return nil }
    return zoneName(Int(u16(Self.headerSize + index * 2)))
  }

  /// Zone `zone` of the table's list (sorted by name); nil past its end.
  public func zoneName(_ zone: Int) -> String? {
    guard zone >= 0, zone < zoneCount else { return nil }
    let start = stringsAt + Int(u32(zonesAt + zone * 4))
    return data.withUnsafeBytes { raw -> String? in
      guard start < raw.count else { return nil }
      var end = start
      while end < raw.count, raw[end] != 0 { end += 1 }
      return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
    }
  }

  private func u16(_ at: Int) -> UInt16 {
    data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt16.self) }
  }
  private func u32(_ at: Int) -> UInt32 {
    data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
  }
}
