import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

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

  /// terminfo as Debian's ncurses-term has it.
  static func terminfo(_ name: String) -> Int? {
    [
      "xterm": 8, "xterm-256color": 256, "xterm-direct": 0x100_0000, "tmux-256color": 256, "tmux-direct": 0x100_0000,
      "screen-256color": 256, "vt100": 0, "foot": 256, "foot-direct": 0x100_0000,
    ][name]
  }

  func plan(
    _ term: String, _ environment: [String: String] = [:], requested: ColorDepth? = nil, placeholders: Bool = false
  )
    -> ColorPlan
  {
    ColorPlan.decide(
      requested: requested, environment: environment, term: term, usesPlaceholders: placeholders,
      colors: Self.terminfo)
  }

  @Test func colorsAreLoweredOnlyWithAReason() {
    let truecolor = plan("tmux-256color", ["COLORTERM": "truecolor"])
    #expect(truecolor.depth == .truecolor && truecolor.terminfoName == "tmux-direct" && truecolor.reasons.isEmpty)
    let noColorterm = plan("xterm-256color")
    #expect(
      noColorterm.depth == .palette256
        && noColorterm.reasons == [
          "no 24-bit colours: COLORTERM=(unset) does not say truecolor or 24bit"
        ])
    let foot = plan("foot", ["COLORTERM": "truecolor"])
    #expect(foot.depth == .truecolor && foot.terminfoName == "foot-direct")
    let noDirect = plan("screen-256color", ["COLORTERM": "24bit"])
    #expect(noDirect.depth == .palette256 && noDirect.reasons.first?.contains("no *-direct terminfo entry") == true)
    let kitty = plan("tmux-256color", ["COLORTERM": "truecolor"], placeholders: true)
    #expect(kitty.depth == .palette256 && kitty.terminfoName == "tmux-256color")
    #expect(kitty.reasons.first?.contains("256-colour index") == true)
    let noColor = plan("xterm-256color", ["NO_COLOR": "1", "COLORTERM": "truecolor"])
    #expect(noColor.depth == ColorDepth.none && noColor.reasons.last == "no colours: NO_COLOR is set")
    let asked = plan("vt100", requested: .sixteen)
    #expect(asked.depth == ColorDepth.none && asked.reasons == ["--colors 16 lowered to none: vt100 has 0"])
    // Fewer asked for than there are: as asked, nothing to explain.
    #expect(plan("xterm-256color", requested: .eight) == ColorPlan(depth: .eight, terminfoName: "xterm-256color"))
  }
}
