import Foundation

/// Names a position: the nearest populated place within 25 km, its region
/// and country; farther out, the country alone when the nearest places
/// agree on it, else nothing ("at sea" is no place). All offline: no
/// position ever leaves the machine.
///
/// GeoNames' feature codes (PPLX for a neighbourhood) are not in the table
/// the picker ships, so a neighbourhood is told by its size instead: a
/// place near a city ten times larger, inside that city's reach (which
/// grows with its population), is named as the city, as "Brooklyn
/// Heights" is New York City and "Dubai Marina" Dubai.
public struct PlaceFinder: Sendable {
  public let table: PlaceTable

  /// The farthest a place may be and still name a position.
  public static let cityRadius = 25.0
  /// How far the country alone is still said.
  public static let countryRadius = 150.0
  static let earthRadius = 6371.0088
  static let kilometresPerDegree = earthRadius * .pi / 180

  public init(table: PlaceTable) { self.table = table }

  /// A position stored by a camera, if it can be one: 0,0 is what cameras
  /// write without a fix, and out of range is no position.
  public static func isPosition(latitude: Double, longitude: Double) -> Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
      && !(latitude == 0 && longitude == 0)
  }

  /// Great-circle distance in km (haversine: exact enough at these sizes).
  static func distance(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double))
    -> Double
  {
    let radians = Double.pi / 180
    let dLat = (b.latitude - a.latitude) * radians
    let dLon = (b.longitude - a.longitude) * radians
    let h =
      sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2)
      * sin(dLon / 2)
    return 2 * earthRadius * asin(min(1, sqrt(h)))
  }

  /// Calls `visit` with every place within `radius` km (in no order) and
  /// its distance. Reads only the 1° cells the circle can touch: a row
  /// band in latitude, and in longitude a span that widens with the
  /// latitude (every column near a pole), wrapping across 180°.
  func scan(
    _ records: PlaceTable.Records, latitude: Double, longitude: Double, within radius: Double,
    _ visit: (Int, Double) -> Void
  ) {
    let span = radius / Self.kilometresPerDegree
    let firstRow = max(0, Int((latitude - span + 90).rounded(.down)))
    let lastRow = min(PlaceTable.rows - 1, Int((latitude + span + 90).rounded(.down)))
    let widest = max(abs(latitude - span), abs(latitude + span))
    let lonSpan = widest >= 89.99 ? 360 : span / cos(widest * .pi / 180)
    let columns: ClosedRange<Int> =
      lonSpan >= 180
      ? 0...(PlaceTable.columns - 1)
      : Int((longitude - lonSpan + 180).rounded(.down))...Int((longitude + lonSpan + 180).rounded(.down))
    // East-west, a degree is at least this long anywhere in the band: a
    // place farther in longitude than the radius allows is skipped before
    // any arithmetic on the sphere (most of a cell, past a few km). The
    // great circle cuts inside the parallel by under 0.1% below 80°; the
    // margin covers that, and nearer the poles nothing is skipped.
    let narrowest = lonSpan >= 180 || widest > 80 ? 0 : cos(widest * .pi / 180) * Self.kilometresPerDegree
    // Distances as chords between unit vectors: a dot product per place,
    // the arc worked out only for those inside.
    let here = Self.vector(latitude: latitude, longitude: longitude)
    let chord = 2 * sin(radius / (2 * Self.earthRadius))
    let chordSquared = chord * chord
    guard firstRow <= lastRow else { return }
    for row in firstRow...lastRow {
      for unwrapped in columns {
        let column = ((unwrapped % PlaceTable.columns) + PlaceTable.columns) % PlaceTable.columns
        for index in records.places(inRow: row, column: column) {
          // Most places of a cell are farther north or south than the radius.
          guard abs(records.latitude(index) - latitude) <= span else { continue }
          var east = abs(records.longitude(index) - longitude)
          if east > 180 { east = 360 - east }
          guard east * narrowest <= radius * 1.01 else { continue }
          let there = records.vector(index)
          let (dx, dy, dz) = (there.x - here.x, there.y - here.y, there.z - here.z)
          let squared = dx * dx + dy * dy + dz * dz
          if squared <= chordSquared { visit(index, 2 * Self.earthRadius * asin(min(1, squared.squareRoot() / 2))) }
        }
      }
    }
  }

  static func vector(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
    let (phi, lambda) = (latitude * .pi / 180, longitude * .pi / 180)
    return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
  }

  /// Every place within `radius` km, nearest first.
  public func places(nearLatitude latitude: Double, longitude: Double, within radius: Double) -> [(
    index: Int, distance: Double
  )] {
    var found: [(index: Int, distance: Double)] = []
    table.withRecords { records in
      scan(records, latitude: latitude, longitude: longitude, within: radius) { found.append(($0, $1)) }
    }
    return found.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
  }

  /// The index of the place nearest the position within `radius` km.
  public func nearest(latitude: Double, longitude: Double, within radius: Double) -> Int? {
    var best: (index: Int, distance: Double)?
    table.withRecords { records in
      scan(records, latitude: latitude, longitude: longitude, within: radius) { index, distance in
        if best.map({ distance < $0.distance || (distance == $0.distance && index < $0.index) }) ?? true {
          best = (index, distance)
        }
      }
    }
    return best?.index
  }

  /// The place a position is in, or nil where none is near.
  public func place(latitude: Double, longitude: Double) -> Place? {
    key(latitude: latitude, longitude: longitude).flatMap(place(key:))
  }

  /// Keys below this are places of the table (its record's index); from it
  /// on, a country alone (`countryKeys + country`).
  public static let countryKeys = 1_000_000

  /// Which place a position is in, as a number the index can keep: the
  /// table's record of the city, or `countryKeys` plus the country where
  /// only the country is said; nil where none is near.
  public func key(latitude: Double, longitude: Double) -> Int? {
    guard Self.isPosition(latitude: latitude, longitude: longitude) else { return nil }
    return table.withRecords { records -> Int? in
      var near: [(index: Int, distance: Double)] = []
      scan(records, latitude: latitude, longitude: longitude, within: Self.cityRadius) { near.append(($0, $1)) }
      if let nearest = near.min(by: { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
      ) {
        // A neighbourhood of a much larger city inside that city's reach:
        // the largest such city names it.
        var chosen = nearest.index
        for candidate in near
        where records.population(candidate.index) >= 10 * max(records.population(nearest.index), 1) {
          let population = records.population(candidate.index)
          if candidate.distance <= Self.reach(ofPopulation: population), population > records.population(chosen) {
            chosen = candidate.index
          }
        }
        return chosen
      }
      // Farther out: the country, when the three nearest places share it.
      var nearestThree: [(index: Int, distance: Double)] = []
      scan(records, latitude: latitude, longitude: longitude, within: Self.countryRadius) { index, distance in
        guard nearestThree.count < 3 || distance < nearestThree[2].distance else { return }
        nearestThree.append((index, distance))
        nearestThree.sort { $0.distance < $1.distance }
        if nearestThree.count > 3 { nearestThree.removeLast() }
      }
      guard let first = nearestThree.first else { return nil }
      let country = records.country(first.index)
      return nearestThree.allSatisfy { records.country($0.index) == country } ? Self.countryKeys + country : nil
    }
  }

  /// The names of a place `key(latitude:longitude:)` gave; nil for a key
  /// the table does not have.
  public func place(key: Int) -> Place? {
    if key >= 0, key < table.count {
      let entry = table.entry(key)
      return Place(
        city: entry.name, region: table.regionName(entry.region), country: table.countryName(entry.country),
        countryCode: table.countryCode(entry.country))
    }
    let country = key - Self.countryKeys
    guard country >= 0, country < table.countryCount else { return nil }
    return Place(city: nil, region: nil, country: table.countryName(country), countryCode: table.countryCode(country))
  }

  /// How far a city of this population reaches, in km: 3 km for 100,000
  /// people, growing with the square root (a city's area grows with its
  /// people), at most the city radius.
  static func reach(ofPopulation population: UInt32) -> Double {
    min(cityRadius, 3 * (Double(population) / 100_000).squareRoot())
  }
}
