import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// `[places]` in the config, read and applied by the namer.
@Suite struct PlaceCorrectionsTests {
  @Test func theConfigNamesAreasAndRenamesPlaces() throws {
    let file = try ConfigFile.parse(
      """
      [places]
      home = [52.52, 13.40, 0.5]
      "Detroit" = "Windsor"
      "Porto, Porto" = "Oporto"
      cabin = [61, 10, 2]
      """, path: "c.toml")
    let corrections = file.placeCorrections
    #expect(corrections.areas.map(\.name) == ["home", "cabin"])
    #expect(corrections.areas[0].latitude == 52.52 && corrections.areas[0].radius == 0.5)
    #expect(corrections.areas[1].longitude == 10)
    #expect(corrections.renames.map(\.from) == ["Detroit", "Porto, Porto"])
    #expect(corrections.renames.map(\.to) == ["Windsor", "Oporto"])
  }

  @Test func aBadCorrectionNamesItsLineAndWhatWasExpected() {
    for (text, expected) in [
      ("home = [52.52, 13.40]", "expected [latitude, longitude, radius in km]"),
      ("home = [95, 13.40, 1]", "expected [latitude, longitude, radius in km]"),
      ("home = [52, 13, 0]", "expected [latitude, longitude, radius in km]"),
      ("home = [52, 13, 500]", "expected [latitude, longitude, radius in km]"),
      ("\"Detroit\" = \"\"", "expected the name to show instead"),
      ("home = 3", "expected a name"),
    ] {
      do {
        _ = try ConfigFile.parse("[places]\n" + text + "\n", path: "c.toml")
        Issue.record("accepted \(text)")
      } catch {
        #expect(error.description.hasPrefix("c.toml:2: "), "\(text)")
        #expect(error.description.contains(expected), "\(text): \(error.description)")
      }
    }
  }

  @Test func anAreaNamesWhatIsInsideItAndNothingOutside() throws {
    let namer = PlaceNamer(
      finder: try PlaceFinderTests.finder(),
      corrections: PlaceCorrections(areas: [.init(name: "home", latitude: 52.52, longitude: 13.40, radius: 0.5)]))
    #expect(namer.place(latitude: 52.5210, longitude: 13.4010)?.label == "home, Germany")
    // 1.1 km away: Berlin again.
    #expect(namer.place(latitude: 52.53, longitude: 13.40)?.city == "Berlin")
    // Two areas holding a position: the nearer centre names it.
    let two = PlaceNamer(
      finder: try PlaceFinderTests.finder(),
      corrections: PlaceCorrections(areas: [
        .init(name: "park", latitude: 52.515, longitude: 13.40, radius: 2),
        .init(name: "home", latitude: 52.52, longitude: 13.40, radius: 2),
      ]))
    #expect(two.place(latitude: 52.5195, longitude: 13.40)?.city == "home")
    #expect(two.place(latitude: 52.5155, longitude: 13.40)?.city == "park")
  }

  @Test func aRenameTakesTheNamesOfAPlaceOfThatNameNearby() throws {
    let finder = try PlaceFinderTests.finder()
    // Detroit's river bank: the table says Detroit, the user Windsor.
    let detroit = try #require(finder.place(latitude: 42.3314, longitude: -83.0458))
    #expect(detroit.city == "Detroit")
    let namer = PlaceNamer(
      finder: finder, corrections: PlaceCorrections(renames: [.init(from: "detroit", to: "Windsor")]))
    let renamed = try #require(namer.place(latitude: 42.3314, longitude: -83.0458))
    #expect(renamed.city == "Windsor" && renamed.country == "Canada")
    // A name the table does not have nearby keeps the region and country.
    let made = PlaceNamer(
      finder: finder, corrections: PlaceCorrections(renames: [.init(from: "Detroit, Michigan", to: "Motown")]))
    #expect(made.place(latitude: 42.3314, longitude: -83.0458)?.label == "Motown, Michigan, United States")
    // Another region: not this Detroit.
    let other = PlaceNamer(
      finder: finder, corrections: PlaceCorrections(renames: [.init(from: "Detroit, Texas", to: "Motown")]))
    #expect(other.place(latitude: 42.3314, longitude: -83.0458)?.city == "Detroit")
  }

  @Test func foldingIgnoresCaseAndAccents() {
    #expect(PlaceText.folded("São Paulo") == "sao paulo")
    #expect(PlaceText.folded("Zürich") == "zurich")
    #expect(PlaceText.folded("Kraków") == "krakow")
    #expect(PlaceText.folded("Łódź") == "lodz")
    #expect(PlaceText.folded("Straße") == "strasse")
    #expect(PlaceText.folded("ÅLESUND") == "alesund")
  }
}
