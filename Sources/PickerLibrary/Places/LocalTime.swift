import Foundation

/// The local time where a position is: the IANA zone of the nearest place
/// of the places table (`zones.bin`, each place's zone from time-zone
/// boundary data), with that zone's offset on the date. Far from any place
/// (at sea, on an ice sheet), the nautical zone of the longitude.
///
/// Used for clips whose header holds only UTC (Android phones, action
/// cams, ffmpeg: `mvhd`, Matroska's DateUTC): a photo's EXIF is the clock
/// where it was taken, so a clip must be put on that clock too, or a
/// traveller's clip lands on another day than the photos beside it.
///
/// The offsets come from Foundation's zone rules (its own copy of the tz
/// database, linked into the binary): past dates, which is what photos
/// have, never change.
public enum LocalTime {
  /// How an offset was found, for the facts panel.
  public enum Source: Hashable, Sendable {
    /// The zone of the place nearest the position.
    case position(zone: String)
    /// Nowhere near a place: the longitude's nautical zone.
    case sea
    /// No position: the machine's own zone.
    case thisMachine
    /// No position: the offset of the photo nearest in time, of the same
    /// folder or camera, that has one (set by the index after a scan,
    /// `LibraryScanner.placeClipsByNearestPhotos`).
    case nearestPhoto

    /// How the index stores it (`photo.zone`); a position's zone name is
    /// not kept there, nothing reads it back.
    public var code: Int {
      switch self {
      case .position: 1
      case .sea: 2
      case .thisMachine: 3
      case .nearestPhoto: 4
      }
    }

    /// The stored code read back; a position's zone without its name.
    public init?(code: Int) {
      switch code {
      case 1: self = .position(zone: "")
      case 2: self = .sea
      case 3: self = .thisMachine
      case 4: self = .nearestPhoto
      default: return nil
      }
    }
  }

  /// Past this, a place's zone is less often right than the longitude's
  /// (measured on the table: 83% against 54% at 50–75 km; even at 110–125 km).
  static let placeRadius = 120.0

  /// The offset from UTC, in seconds, at the moment `utcSeconds` where
  /// (`latitude`, `longitude`) is; nil when the position is none.
  public static func offset(latitude: Double, longitude: Double, utcSeconds: Int64) -> (
    seconds: Int, source: Source
  )? {
    guard let finder = PlaceData.finder, let zones = ZoneData.table, zones.fits(finder.table) else {
      // No tables: the longitude alone would be wrong for most land.
      return nil
    }
    return offset(latitude: latitude, longitude: longitude, utcSeconds: utcSeconds, finder: finder, zones: zones)
  }

  /// The same with the tables given (the benchmark's, a test's).
  public static func offset(
    latitude: Double, longitude: Double, utcSeconds: Int64, finder: PlaceFinder, zones: ZoneTable
  ) -> (seconds: Int, source: Source)? {
    guard PlaceFinder.isPosition(latitude: latitude, longitude: longitude) else { return nil }
    if let nearest = finder.nearest(latitude: latitude, longitude: longitude, within: placeRadius),
      let zone = zones.zoneName(ofPlace: nearest), let rules = ZoneRules.named(zone)
    {
      return (rules.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utcSeconds))), .position(zone: zone))
    }
    return ((Int((longitude / 15).rounded())) * 3600, .sea)
  }
}

/// Zone rules by name, made once each: a `TimeZone` costs microseconds to
/// make, its offsets a fraction of that.
enum ZoneRules {
  private static let cache = Cache()

  private final class Cache: @unchecked Sendable {
    let lock = NSLock()
    var zones: [String: TimeZone?] = [:]
  }

  static func named(_ name: String) -> TimeZone? {
    cache.lock.lock()
    defer { cache.lock.unlock() }
    if let known = cache.zones[name] { return known }
    let zone = TimeZone(identifier: name)
    cache.zones[name] = zone
    return zone
  }
}

/// The zones table the picker ships, beside the places table it belongs to.
public enum ZoneData {
  public static let table: ZoneTable? = {
    guard let placesPath = PlaceData.foundPath else { return nil }
    let path = URL(fileURLWithPath: placesPath).deletingLastPathComponent().appendingPathComponent("zones.bin").path
    return ZoneTable(path: path)
  }()
}
