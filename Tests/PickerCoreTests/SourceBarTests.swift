import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The source bar's tabs: number, icon, title, sign-in mark.
@Suite struct SourceBarTests {
  @Test func eachTabShowsItsSourcesIcon() {
    let (state, _) = Fixture.started(sources: [Fixture.source("Files"), remote("Stock", icon: "☁")])
    #expect(SourceBarView.labels(state) == ["[1 ▤ Files]", "[2 ☁ Stock]"])
  }

  @Test func theConfigsIconWinsAndIsSanitised() {
    var options = AppOptions()
    options.sourceIcons = ["stock": "N", "files": "\u{1B}[31m"]
    let (state, _) = Fixture.started(sources: [Fixture.source("Files"), remote("Stock", icon: "☁")], options: options)
    let labels = SourceBarView.labels(state)
    #expect(labels[1] == "[2 N Stock]")
    #expect(!labels[0].unicodeScalars.contains("\u{1B}"))
  }

  @Test func withoutAUTF8LocaleIconsAreASCII() {
    var options = AppOptions()
    options.asciiIcons = true
    options.sourceIcons = ["cats": "🐱", "dogs": "D"]
    let sources = [Fixture.source("Files"), remote("Stock", icon: "☁"), remote("Cats"), remote("Dogs")]
    let (state, _) = Fixture.started(sources: sources, options: options)
    #expect(SourceBarView.labels(state) == ["[1 # Files]", "[2 @ Stock]", "[3 - Cats]", "[4 D Dogs]"])
  }

  @Test func aConfigSourceTakesAnIcon() throws {
    let config = try ConfigFile.parse(
      """
      [[sources]]
      kind = "folder"
      name = "Holidays"
      icon = "H"
      path = "/p"
      """, path: "/c.toml")
    #expect(config.icons == ["Holidays": "H"])
  }

  private func remote(_ title: String, icon: String = "▣") -> SourceSummary {
    SourceSummary(id: title.lowercased(), title: title, icon: icon, capabilities: [], rootLabel: title)
  }
}
