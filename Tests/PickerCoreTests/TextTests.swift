import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct SanitizerTests {
  @Test func plainNamesPassThrough() {
    #expect(Sanitizer.sanitize("Strand 2024 – Nizza.jpg") == "Strand 2024 – Nizza.jpg")
    #expect(Sanitizer.sanitize("写真.png") == "写真.png")
  }

  @Test func controlCharactersAreEscaped() {
    #expect(Sanitizer.sanitize("a\nb\tc\rd") == "a\\nb\\tc\\rd")
    #expect(Sanitizer.sanitize("\u{1B}]0;PWNED\u{07}.jpg") == "\\e]0;PWNED\\x07.jpg")
    #expect(Sanitizer.sanitize("x\u{7F}") == "x\\x7F")
    #expect(Sanitizer.sanitize("x\u{9B}31m") == "x\\u{9B}31m")
  }

  @Test func separatorsAndUnassignedAreEscaped() {
    #expect(Sanitizer.sanitize("a\u{2028}b") == "a\\u{2028}b")
    #expect(Sanitizer.sanitize("x\u{0378}") == "x\\u{0378}")
  }

  @Test func aMarkWithNothingToSitOnGetsAVisibleBase() {
    #expect(Sanitizer.sanitize("\u{301}lead.jpg") == "◌\u{301}lead.jpg")
    #expect(Sanitizer.sanitize("a\n\u{301}.jpg") == "a\\n◌\u{301}.jpg")
    #expect(Sanitizer.sanitize("cafe\u{301}.jpg") == "cafe\u{301}.jpg", "a mark on a letter stays as it is")
    #expect(Sanitizer.sanitize("\u{301}lead.jpg") != Sanitizer.sanitize("lead.jpg"))
  }

  @Test func bidiOverridesAreEscaped() {
    #expect(Sanitizer.sanitize("gpj.\u{202E}exe") == "gpj.\\u{202E}exe")
  }

  @Test func invalidUTF8IsShownAsBytes() {
    #expect(Sanitizer.sanitize([0x61, 0xFF, 0x62]) == "a\\xFFb")
    // Overlong encoding of "/" and a lone continuation byte.
    #expect(Sanitizer.sanitize([0xC0, 0xAF, 0x80]) == "\\xC0\\xAF\\x80")
    // A truncated sequence at the end.
    #expect(Sanitizer.sanitize([0x41, 0xE2, 0x82]) == "A\\xE2\\x82")
    // UTF-16 surrogates are not UTF-8.
    #expect(Sanitizer.sanitize([0xED, 0xA0, 0x80]) == "\\xED\\xA0\\x80")
  }

  @Test func sanitisedTextHasNoControlCharacters() {
    let nasty: [UInt8] = Array(0...255).map(UInt8.init)
    let shown = Sanitizer.sanitize(nasty)
    #expect(shown.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
  }
}

@Suite struct DisplayWidthTests {
  @Test func widths() {
    #expect(DisplayWidth.of("abc") == 3)
    #expect(DisplayWidth.of("写真") == 4)
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.of("🌅") == 2)
  }

  @Test func widthsAgreeWithWcwidthWhereTablesDiffer() {
    // Decomposed Hangul: the vowel and final join the first letter.
    #expect(DisplayWidth.of("\u{1112}\u{1161}\u{11AB}") == 2)
    // A flag is two regional indicators of one column each.
    #expect(DisplayWidth.of("🇩🇪") == 2)
  }

  @Test func truncation() {
    #expect(DisplayWidth.truncate("IMG_1234.jpg", to: 8) == "IMG_123…")
    #expect(DisplayWidth.truncate("short", to: 8) == "short")
    #expect(DisplayWidth.truncate("写真写真", to: 5) == "写真…")
    #expect(DisplayWidth.truncateLeading("/home/me/Pictures/2024", to: 10) == "…ures/2024")
  }
}

@Suite struct PathTests {
  @Test func joiningKeepsTheRootAsGiven() {
    #expect(PathBytes("/tmp/x").appending(Array("a.jpg".utf8)).lossyString == "/tmp/x/a.jpg")
    #expect(PathBytes("/tmp/x/").appending(Array("a.jpg".utf8)).lossyString == "/tmp/x/a.jpg")
    #expect(PathBytes(".").appending(Array("a.jpg".utf8)).lossyString == "./a.jpg")
  }

  @Test func lastComponent() {
    #expect(PathBytes("/a/b/c.jpg").lastComponent == Array("c.jpg".utf8))
    #expect(PathBytes("c.jpg").lastComponent == Array("c.jpg".utf8))
    #expect(PathBytes("/a/b/").lastComponent == Array("b".utf8))
  }

  @Test func identifiersRoundTripAnyBytes() {
    // A cut 4-byte sequence (F0 9F 98) is repaired to one 3-byte U+FFFD:
    // as long as the bytes, not the same bytes.
    let names: [[UInt8]] = [
      Array("Album/a.jpg".utf8), [0x66, 0xFF, 0x2F, 0x00], Array("100%.jpg".utf8), [], [0xF0, 0x9F, 0x98],
      Array("café/ü.jpg".utf8), [0x61, 0xED, 0xA0, 0x80],
    ]
    for name in names {
      #expect(IdentifierCoding.decode(IdentifierCoding.encode(name)) == name)
    }
    #expect(IdentifierCoding.encode(Array("Album/a.jpg".utf8)) == "Album/a.jpg")
    #expect(IdentifierCoding.encode(Array("café/ü.jpg".utf8)) == "café/ü.jpg")
    #expect(IdentifierCoding.encode([0xF0, 0x9F, 0x98]) == "%f09f98")
  }

  @Test func photoExtensions() {
    #expect(PhotoFileTypes.isPhoto(name: Array("a.JPG".utf8)))
    #expect(PhotoFileTypes.isPhoto(name: Array("b.heic".utf8)))
    #expect(!PhotoFileTypes.isPhoto(name: Array("notes.txt".utf8)))
    #expect(!PhotoFileTypes.isPhoto(name: Array(".jpg".utf8)))
    #expect(!PhotoFileTypes.isPhoto(name: Array("jpg".utf8)))
  }
}
