import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The symbols a thumbnail's cells are drawn with: one column each, or a
/// space, the same from the looked-up ranges as from the width check.
@Suite struct ThumbnailSymbolTests {
  @Test func blocksShapesAndBrailleAreThemselves() {
    #expect(Screen.symbol(0x2580) == "▀")
    #expect(Screen.symbol(0x2584) == "▄")
    #expect(Screen.symbol(0x28FF) == "⣿")
    #expect(Screen.symbol(0x2501) == "━")
    #expect(Screen.symbol(UInt32(UInt8(ascii: "#"))) == "#")
  }

  @Test func wideOrControlScalarsBecomeSpaces() {
    // ◾ has emoji presentation (two columns), even inside the looked-up range.
    #expect(Screen.symbol(0x25FE) == " ")
    #expect(Screen.symbol(0x07) == " ")
    #expect(Screen.symbol(0x1F600) == " ")
    #expect(Screen.symbol(0xD800) == " ")
  }

  @Test func everyLookedUpScalarIsOneColumnOrASpace() {
    for scalar in Array(0..<UInt32(0x80)) + Array(UInt32(0x2500)..<0x2900) {
      let symbol = Screen.symbol(scalar)
      let unicode = Unicode.Scalar(scalar)!
      #expect(symbol == (DisplayWidth.of(unicode) == 1 ? String(Character(unicode)) : " "), "U+\(scalar)")
    }
  }
}
