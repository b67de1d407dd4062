import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The places table the picker ships (Resources/places.bin), looked up the
/// way photos' positions will be.
@Suite struct PlaceFinderTests {
  static let table: PlaceTable? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return PlaceTable(path: root.appendingPathComponent("Resources/places.bin").path)
  }()

  static func finder() throws -> PlaceFinder { PlaceFinder(table: try #require(table, "Resources/places.bin")) }

  @Test func theGridFindsWhatAScanOfEveryPlaceFinds() throws {
    let finder = try Self.finder()
    let table = finder.table
    // The scan: every place, sorted by latitude once so that each position
    // checks only the band within 25 km north and south (every longitude).
    let all = (0..<table.count).map { table.position($0) }.sorted { $0.latitude < $1.latitude }
    let latitudes = all.map(\.latitude)
    let band = 25 / PlaceFinder.kilometresPerDegree + 1e-6
    var generator = SystemRandomNumberGenerator()
    var named = 0
    for round in 0..<10_000 {
      // Near a place (where photos are), or anywhere (mostly sea).
      var latitude = Double.random(in: -90...90, using: &generator)
      var longitude = Double.random(in: -180...180, using: &generator)
      if round % 2 == 0 {
        let near = all[Int.random(in: 0..<all.count, using: &generator)]
        latitude = min(90, max(-90, near.latitude + Double.random(in: -0.3...0.3, using: &generator)))
        longitude = near.longitude + Double.random(in: -0.3...0.3, using: &generator)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
      }
      var low = 0
      var high = latitudes.count
      while low < high {
        let middle = (low + high) / 2
        if latitudes[middle] < latitude - band { low = middle + 1 } else { high = middle }
      }
      var best = Double.infinity
      var index = low
      while index < all.count, all[index].latitude <= latitude + band {
        best = min(best, PlaceFinder.distance((latitude, longitude), all[index]))
        index += 1
      }
      // The table keeps unit vectors in 32-bit floats: distances agree to a
      // metre, so a place within a metre of the edge may fall either way.
      let grid = finder.places(nearLatitude: latitude, longitude: longitude, within: 25).first?.distance
      if abs(best - 25) > 0.001 {
        #expect((grid != nil) == (best <= 25), "at \(latitude), \(longitude)")
        if let grid { #expect(abs(grid - best) < 0.001, "at \(latitude), \(longitude): \(grid) km, not \(best)") }
      }
      if grid != nil { named += 1 }
    }
    #expect(named > 3_000, "most positions near a place are named")
  }

  @Test func placesLandOnThemselves() throws {
    let finder = try Self.finder()
    for (latitude, longitude, city, country) in [
      (38.71667, -9.13333, "Lisbon", "Portugal"), (38.80097, -9.37826, "Sintra", "Portugal"),
      (42.30008, -83.01654, "Windsor", "Canada"), (42.33143, -83.04575, "Detroit", "United States"),
    ] {
      let place = try #require(finder.place(latitude: latitude, longitude: longitude))
      #expect(place.city == city && place.country == country)
    }
    #expect(finder.place(latitude: 38.71667, longitude: -9.13333)?.label == "Lisbon, Lisbon, Portugal")
  }

  @Test func aNeighbourhoodIsNamedAsItsCity() throws {
    let finder = try Self.finder()
    // Brooklyn Heights, a part of New York City in GeoNames' data.
    #expect(finder.place(latitude: 40.69538, longitude: -73.99375)?.city == "New York City")
  }

  @Test func theCityRadiusIsTwentyFiveKilometres() throws {
    let finder = try Self.finder()
    // Due south of a lone place: 24 km names it, 26 km does not.
    let table = finder.table
    let far = (0..<table.count).first { index in
      let p = table.position(index)
      return abs(p.latitude) < 60
        && finder.places(nearLatitude: p.latitude, longitude: p.longitude, within: 60).count == 1
    }
    let lone = table.position(try #require(far))
    let degree = PlaceFinder.kilometresPerDegree
    #expect(finder.places(nearLatitude: lone.latitude - 24 / degree, longitude: lone.longitude, within: 25).count == 1)
    #expect(finder.places(nearLatitude: lone.latitude - 26 / degree, longitude: lone.longitude, within: 25).isEmpty)
  }

  @Test func noPositionAndTheOpenSeaNameNothing() throws {
    let finder = try Self.finder()
    #expect(finder.place(latitude: 0, longitude: 0) == nil, "0,0 is a camera without a fix")
    #expect(finder.place(latitude: 91, longitude: 0) == nil && finder.place(latitude: .nan, longitude: 3) == nil)
    #expect(finder.place(latitude: -40, longitude: -130) == nil, "the South Pacific")
  }

  @Test func theAntimeridianAndThePolesAreSearchedAcross() throws {
    let finder = try Self.finder()
    // Fiji's places sit on both sides of 180°.
    let west = finder.places(nearLatitude: -16.8, longitude: 179.99, within: 150)
    let east = finder.places(nearLatitude: -16.8, longitude: -179.99, within: 150)
    #expect(!west.isEmpty && west.map(\.index).sorted() == east.map(\.index).sorted())
    #expect(finder.places(nearLatitude: 90, longitude: 0, within: 25).isEmpty)
    #expect(finder.place(latitude: -90, longitude: 45) == nil)
  }

  @Test func offshoreTheCountryAloneWhenTheNearestAgree() throws {
    let finder = try Self.finder()
    // 40 km off Portugal's coast, west of Lisbon.
    let place = try #require(finder.place(latitude: 38.72, longitude: -9.9))
    #expect(place.city == nil && place.country == "Portugal")
  }

  @Test func theTableIsLookedForBesideTheBinaryThenInTheCheckout() {
    #expect(
      PlaceData.candidates(executable: "/usr/bin/picker-tui", override: nil).first
        == "/usr/share/picker-tui/places.bin")
    #expect(
      PlaceData.candidates(executable: "/src/picker/.build/x86_64-unknown-linux-gnu/release/picker-tui", override: nil)
        .contains("/src/picker/Resources/places.bin"))
    #expect(PlaceData.candidates(executable: "/usr/bin/picker-tui", override: "/tmp/p.bin") == ["/tmp/p.bin"])
  }
}
