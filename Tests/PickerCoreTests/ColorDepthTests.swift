import Testing

@testable import PickerCore

@Suite struct ColorDepthTests {
  @Test func depthFromColourCount() {
    #expect(ColorDepth.forTerminal(colors: 0) == ColorDepth.none)
    #expect(ColorDepth.forTerminal(colors: 8) == .eight)
    #expect(ColorDepth.forTerminal(colors: 256) == .palette256)
    #expect(ColorDepth.forTerminal(colors: 16_777_216) == .truecolor)
  }

  @Test func reduction() {
    #expect(TermColor.rgb(0xFF0000).reduced(to: .palette256) == .palette(196))
    #expect(TermColor.rgb(0xFF0000).reduced(to: .sixteen) == .palette(9))
    #expect(TermColor.rgb(0xFF0000).reduced(to: .eight) == .palette(1))
    #expect(TermColor.rgb(0x808080).reduced(to: .palette256) == .palette(244))
    #expect(TermColor.palette(11).reduced(to: .eight) == .palette(3))
    // Grey must not turn black on eight colours.
    #expect(TermColor.palette(8).reduced(to: .eight) == .default)
    #expect(TermColor.palette(196).reduced(to: .sixteen) == .palette(9))
    #expect(TermColor.palette(3).reduced(to: ColorDepth.none) == nil)
    #expect(TermColor.default.reduced(to: .eight) == .default)
  }
}
