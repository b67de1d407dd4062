import Foundation

/// The places of `Resources/places.bin` (scripts/make-places.py), read in
/// place: the file is mapped and nothing is parsed at load, so opening it
/// costs a page or two and the rest is read as lookups touch it.
public final class PlaceTable: Sendable {
  /// One populated place.
  public struct Entry: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var population: UInt32
    public var name: String
    public var region: Int
    public var country: Int
  }

  static let rows = 180
  static let columns = 360
  static let headerSize = 24
  static let placeSize = 32

  private let data: Data
  public let count: Int
  private let regionCount: Int
  let countryCount: Int
  private let placesAt: Int
  private let regionsAt: Int
  private let countriesAt: Int
  private let stringsAt: Int

  /// Maps the table at `path`; nil when it is missing or not a table.
  public init?(path: String) {
    // Looked for in several places: a missing one is not read at all
    // (Foundation's failed read kept a small buffer, which the fuzzers'
    // leak checker reported).
    guard FileManager.default.isReadableFile(atPath: path),
      let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
      data.count >= Self.headerSize, data.prefix(8).elementsEqual("PKPLACE1".utf8)
    else { return nil }
    self.data = data
    func u32(_ at: Int) -> Int { Int(data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }) }
    count = u32(8)
    regionCount = u32(12)
    countryCount = u32(16)
    let stringBytes = u32(20)
    placesAt = Self.headerSize + (Self.rows * Self.columns + 1) * 4
    regionsAt = placesAt + count * Self.placeSize
    countriesAt = regionsAt + regionCount * 8
    stringsAt = countriesAt + countryCount * 8
    guard data.count == stringsAt + stringBytes else { return nil }
  }

  /// The records as raw memory, for a lookup's inner loop: reading them
  /// through `Data` one field at a time cost most of a lookup.
  func withRecords<Result>(_ body: (Records) -> Result) -> Result {
    data.withUnsafeBytes { body(Records(raw: $0, placesAt: placesAt)) }
  }

  /// Read-only views of the cell table and the places, valid inside
  /// `withRecords`.
  struct Records {
    let raw: UnsafeRawBufferPointer
    let placesAt: Int

    func places(inRow row: Int, column: Int) -> Range<Int> {
      let at = PlaceTable.headerSize + (row * PlaceTable.columns + column) * 4
      return Int(
        raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))..<Int(
          raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))
    }
    func latitude(_ index: Int) -> Double {
      Double(raw.loadUnaligned(fromByteOffset: placesAt + index * PlaceTable.placeSize, as: Int32.self)) / 1e5
    }
    func longitude(_ index: Int) -> Double {
      Double(raw.loadUnaligned(fromByteOffset: placesAt + index * PlaceTable.placeSize + 4, as: Int32.self)) / 1e5
    }
    /// The place's point on the unit sphere.
    func vector(_ index: Int) -> (x: Double, y: Double, z: Double) {
      let at = placesAt + index * PlaceTable.placeSize + 8
      return (
        Double(raw.loadUnaligned(fromByteOffset: at, as: Float.self)),
        Double(raw.loadUnaligned(fromByteOffset: at + 4, as: Float.self)),
        Double(raw.loadUnaligned(fromByteOffset: at + 8, as: Float.self))
      )
    }
    func population(_ index: Int) -> UInt32 {
      raw.loadUnaligned(fromByteOffset: placesAt + index * PlaceTable.placeSize + 20, as: UInt32.self)
    }
    func country(_ index: Int) -> Int { Int(raw[placesAt + index * PlaceTable.placeSize + 30]) }
  }

  private func u32(_ at: Int) -> UInt32 {
    data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
  }
  private func i32(_ at: Int) -> Int32 { data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Int32.self) } }

  /// The places of a 1° cell: `row` from 90°S, `column` from 180°W.
  func places(inRow row: Int, column: Int) -> Range<Int> {
    let cell = row * Self.columns + column
    let at = Self.headerSize + cell * 4
    return Int(u32(at))..<Int(u32(at + 4))
  }

  /// A place's position in degrees, without reading its names.
  func position(_ index: Int) -> (latitude: Double, longitude: Double) {
    let at = placesAt + index * Self.placeSize
    return (Double(i32(at)) / 1e5, Double(i32(at + 4)) / 1e5)
  }

  public func entry(_ index: Int) -> Entry {
    let at = placesAt + index * Self.placeSize
    let (latitude, longitude) = position(index)
    let names = data.withUnsafeBytes {
      (region: Int($0.loadUnaligned(fromByteOffset: at + 28, as: UInt16.self)), country: Int($0[at + 30]))
    }
    return Entry(
      latitude: latitude, longitude: longitude, population: u32(at + 20), name: string(at: Int(u32(at + 24))),
      region: names.region, country: names.country)
  }

  public func regionName(_ index: Int) -> String { string(at: Int(u32(regionsAt + index * 8))) }

  public func countryCode(_ index: Int) -> String {
    let at = countriesAt + index * 8
    return String(decoding: data[(data.startIndex + at)..<(data.startIndex + at + 2)], as: UTF8.self)
  }

  public func countryName(_ index: Int) -> String { string(at: Int(u32(countriesAt + index * 8 + 4))) }

  private func string(at offset: Int) -> String {
    data.withUnsafeBytes { raw in
      let start = stringsAt + offset
      var end = start
      while end < raw.count, raw[end] != 0 { end += 1 }
      return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
    }
  }
}
