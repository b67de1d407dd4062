import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Feeds reply chunks as reads, the way the start-up probe does: replies
/// until DA1, keys kept apart.
private func probe(_ chunks: [String]) -> (facts: TerminalFacts, keys: [Key]) {
  var decoder = InputDecoder()
  var facts = TerminalFacts()
  var keys: [Key] = []
  for chunk in chunks where !facts.isComplete {
    for event in decoder.decode(Array(chunk.utf8)) {
      switch event {
      case .reply(let reply): facts.absorb(reply)
      case .key(let key): keys.append(key)
      case .mouse: break
      }
    }
  }
  return (facts, keys)
}

private func decide(
  _ chunks: [String], mode: ThumbnailMode = .auto, environment: [String: String] = [:], passthrough: Bool? = nil,
  window: PixelSize? = nil
) -> GraphicsSupport {
  GraphicsDetection.decide(
    mode: mode, facts: probe(chunks).facts, environment: environment, passthrough: passthrough,
    windowPixels: window, windowCells: TerminalSize(width: 80, height: 24))
}

@Suite struct GraphicsDetectionTests {
  static let kitty = [
    "\u{1B}P>|kitty(0.26.5)\u{1B}\\", "\u{1B}[6;17;8t\u{1B}[4;408;640t", "\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}[?62;c",
  ]
  static let xtermVT340 = [
    "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?1;0;256S\u{1B}[?2;0;640;408S", "\u{1B}[?63;1;2;4;6;9;15;16;22;28c",
  ]
  static let mlterm = ["\u{1B}[6;16;8t\u{1B}[4;384;640t\u{1B}[?63;1;2;3;4;6;7;15;18;22;29c"]

  @Test func kittyAnswersItsGraphicsQuery() {
    let support = decide(Self.kitty)
    #expect(support.graphics == .kitty && !support.usesPlaceholders)
    #expect(support.cellSize == PixelSize(width: 8, height: 17))
    #expect(support.reasons.contains("terminal: kitty(0.26.5)"))
  }

  @Test func xtermAsVT340DrawsSixelWithItsRegisters() {
    let support = decide(Self.xtermVT340, window: PixelSize(width: 640, height: 408))
    #expect(support.graphics == .sixel)
    #expect(support.colorRegisters == 256)
    #expect(support.sixelMaxSize == PixelSize(width: 640, height: 408))
    // No CSI 16 t answer: the tty's own pixel size decides.
    #expect(support.cellSize == PixelSize(width: 8, height: 17))
  }

  @Test func mltermDrawsSixel() {
    let support = decide(Self.mlterm)
    #expect(support.graphics == .sixel && support.cellSize == PixelSize(width: 8, height: 16))
  }

  @Test func aTerminalThatAnswersOnlyDA1GetsSymbols() {
    let support = decide(["\u{1B}[?1;2c"])
    #expect(support.graphics == nil)
    #expect(support.cellSize == PixelSize(width: 8, height: 16), "nothing known: 8x16 assumed")
  }

  @Test func aTerminalThatAnswersNothingGetsSymbols() {
    let support = decide([])
    #expect(support.graphics == nil)
    #expect(support.reasons.contains("no DA1 answer before the deadline"))
  }

  @Test func iTerm2IsKnownByName() {
    #expect(decide(["\u{1B}[?62;22c"], environment: ["TERM_PROGRAM": "iTerm.app"]).graphics == .iterm2)
    #expect(decide(["\u{1B}P>|WezTerm 20240203\u{1B}\\\u{1B}[?65;4c"]).graphics == .sixel, "sixel first")
  }

  @Test func withoutAQueryTheEnvironmentTellsWhatThePickerWouldChoose() {
    func chosen(_ environment: [String: String]) -> GraphicsProtocol? {
      GraphicsDetection.fromEnvironment(environment).graphics
    }
    #expect(chosen(["TERM": "xterm-kitty"]) == .kitty)
    #expect(chosen(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"]) == .kitty)
    #expect(chosen(["TERM": "xterm-256color", "KONSOLE_VERSION": "221203"]) == .kitty)
    #expect(chosen(["TERM": "foot"]) == .sixel && chosen(["TERM": "foot-extra"]) == .sixel)
    #expect(chosen(["TERM": "xterm", "MLTERM": "3.9.3"]) == .sixel)
    #expect(chosen(["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]) == .iterm2)
    // xterm draws sixel only as a VT340, which only a query tells.
    #expect(chosen(["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"]) == nil)
    // In tmux (or a pane of it over ssh), never raw images.
    #expect(chosen(["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"]) == nil)
    #expect(chosen(["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"]) == nil)
    #expect(chosen(["TERM": "xterm-256color"]) == nil)
  }

  @Test func forcedModesWinAndOffAsksNothingOfTheTerminal() {
    #expect(decide(["\u{1B}[?1;2c"], mode: .sixel).graphics == .sixel)
    #expect(decide(Self.kitty, mode: .symbols).graphics == nil)
    #expect(decide(Self.kitty, mode: .off).graphics == nil)
  }

  @Test func tmuxWithPassthroughOffSaysHowToTurnItOn() {
    let support = decide([], passthrough: false)
    #expect(support.graphics == nil)
    #expect(support.notice == "pixel thumbnails: tmux set -g allow-passthrough on")
  }

  @Test func tmuxWithPassthroughOnUsesKittyPlaceholders() {
    let support = decide(Self.kitty, passthrough: true)
    #expect(support.graphics == .kitty && support.usesPlaceholders && support.inTmux)
    // Sixel pictures are cells tmux does not know of: symbols there.
    #expect(decide(Self.xtermVT340, passthrough: true).graphics == nil)
  }

  @Test func repliesSplitAcrossReadsWithKeysInterleaved() {
    let chunks = ["\u{1B}_Gi=3", "1;OK\u{1B}\\j\u{1B}[C", "\u{1B}[6;1", "7;8t \u{1B}[?62", ";c"]
    let (facts, keys) = probe(chunks)
    #expect(facts.kittyGraphics && facts.cellSize == PixelSize(width: 8, height: 17) && facts.isComplete)
    #expect(keys == [.char("j"), .right, .char(" ")])
  }

  @Test func anAnswerForAnotherImageIsNotOurs() {
    #expect(!probe(["\u{1B}_Gi=99;OK\u{1B}\\\u{1B}[?62;c"]).facts.kittyGraphics)
    #expect(!probe(["\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;c"]).facts.kittyGraphics)
  }

  @Test func queriesEndWithTheSentinelAndTmuxWrapsThemWhole() {
    let queries = String(decoding: GraphicsDetection.queries(), as: UTF8.self)
    #expect(queries.hasPrefix("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"))
    #expect(queries.hasSuffix("\u{1B}[c"))
    let wrapped = String(decoding: GraphicsDetection.tmuxPassthrough(Array("\u{1B}[c".utf8)), as: UTF8.self)
    #expect(wrapped == "\u{1B}Ptmux;\u{1B}\u{1B}[c\u{1B}\\")
  }

  @Test func theKittyQueryIsLeftOutUnderAMultiplexerThePickerCannotAddress() {
    // Over ssh from a tmux pane: TERM says tmux, $TMUX is not passed.
    #expect(!GraphicsDetection.mayAskKitty(environment: ["TERM": "tmux-256color"]))
    #expect(!GraphicsDetection.mayAskKitty(environment: ["TERM": "screen.xterm-256color", "TMUX": ""]))
    #expect(GraphicsDetection.mayAskKitty(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]))
    #expect(GraphicsDetection.mayAskKitty(environment: ["TERM": "xterm-kitty"]))
    let without = String(decoding: GraphicsDetection.queries(kitty: false), as: UTF8.self)
    #expect(!without.contains("\u{1B}_G"))
    #expect(without.hasSuffix("\u{1B}[c"))
  }
}
