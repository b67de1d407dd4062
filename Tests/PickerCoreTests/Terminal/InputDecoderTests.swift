import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Decodes `text` in one read, then times out what is left (as the backend
/// does once the escape delay passed).
private func keys(_ text: String) -> [Key] {
  events(Array(text.utf8)).compactMap { if case .key(let key) = $0 { return key } else { return nil } }
}

private func events(_ bytes: [UInt8]) -> [TerminalInputEvent] {
  var decoder = InputDecoder()
  return decoder.decode(bytes) + decoder.timeOut()
}

@Suite struct InputDecoderKeyTests {
  @Test func loneEscapeIsEscOnlyAfterTheDelay() {
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.waiting == .escapeDelay)
    #expect(decoder.timeOut() == [.key(.escape)])
    #expect(decoder.waiting == .none)
  }

  @Test func homeAndEndInEveryForm() {
    // terminfo's (SS3), xterm's CSI, tmux's and the console's `~`, rxvt's.
    for sequence in ["\u{1B}OH", "\u{1B}[H", "\u{1B}[1~", "\u{1B}[7~", "\u{1B}[1;2H", "\u{1B}[7^"] {
      #expect(keys(sequence) == [.home], "\(Array(sequence.utf8))")
    }
    for sequence in ["\u{1B}OF", "\u{1B}[F", "\u{1B}[4~", "\u{1B}[8~", "\u{1B}[1;5F", "\u{1B}[8$"] {
      #expect(keys(sequence) == [.end], "\(Array(sequence.utf8))")
    }
  }

  @Test func arrowsInBothCursorModesAndWithModifiers() {
    #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
    #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
    // Ctrl (5) is the plain arrow; Shift (2) is its own key (the loupe's page pan).
    #expect(keys("\u{1B}[1;5C\u{1B}[1;2D") == [.right, .shiftLeft])
    #expect(keys("\u{1B}[1;2A\u{1B}[1;2B\u{1B}[1;2C") == [.shiftUp, .shiftDown, .shiftRight])
  }

  @Test func pagingInsertDeleteAndFunctionKeys() {
    #expect(keys("\u{1B}[5~\u{1B}[6~\u{1B}[3~") == [.pageUp, .pageDown, .delete])
    #expect(keys("\u{1B}[2~").isEmpty)  // Insert: no action, and no Esc
    #expect(keys("\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS") == [.function(1), .function(2), .function(3), .function(4)])
    #expect(
      keys("\u{1B}[11~\u{1B}[15~\u{1B}[17~\u{1B}[24~") == [.function(1), .function(5), .function(6), .function(12)])
    // The linux console's F1-F5.
    #expect(keys("\u{1B}[[A\u{1B}[[E") == [.function(1), .function(5)])
    #expect(keys("\u{1B}[1;2P") == [.function(1)])
    #expect(keys("\u{1B}O1;2P\u{1B}O5A") == [.function(1), .up], "SS3 with modifiers")
    #expect(keys("\u{1B}[Z") == [.backTab])
  }

  @Test func altPlusKeyIsAltNotEsc() {
    #expect(keys("\u{1B}x") == [.alt("x")])
    #expect(keys("\u{1B}é") == [.alt("é")])
    #expect(keys("\u{1B}\u{7F}") == [.backspace], "Alt+Backspace, or Esc and Backspace typed fast")
    #expect(keys("\u{1B}\r") == [.enter])
    // Alt+P, Alt+] and Alt+_ are keys, not the start of a reply.
    #expect(keys("\u{1B}Pa\u{1B}]x") == [.alt("P"), .char("a"), .alt("]"), .char("x")])
    // rxvt's Alt+arrow: ESC then the arrow.
    #expect(keys("\u{1B}\u{1B}[A") == [.up])
    #expect(keys("\u{1B}\u{1B}OB") == [.down])
  }

  @Test func escPressedTwiceQuicklyIsTwoEscs() {
    // In one read, and split across two reads before the delay passed: the
    // first Esc closes a form, the second cancels.
    #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.timeOut() == [.key(.escape), .key(.escape)])
    // Esc twice, then a letter: Esc, then Alt plus the letter.
    #expect(keys("\u{1B}\u{1B}q") == [.escape, .alt("q")])
  }

  @Test func escFollowedByATerminalsReplyIsStillEsc() {
    // Pictures going out ask DA1 after each batch: its answer may come
    // right after an Esc the user typed.
    #expect(events(Array("\u{1B}\u{1B}[?62;22c".utf8)) == [.key(.escape), .reply(.primaryAttributes([62, 22]))])
    var decoder = InputDecoder()
    #expect(decoder.decode(Array("\u{1B}\u{1B}[".utf8)).isEmpty, "not decided before the next byte")
    #expect(decoder.decode(Array("?62c".utf8)) == [.key(.escape), .reply(.primaryAttributes([62]))])
  }

  @Test func unknownSequencesAreIgnoredNotEsc() {
    #expect(keys("\u{1B}[99~\u{1B}[1;5X\u{1B}Oz\u{1B}[200~").isEmpty)
    // An unfinished sequence that times out is dropped, not Esc.
    #expect(keys("\u{1B}[1;").isEmpty)
    #expect(keys("\u{1B}O").isEmpty)
  }

  @Test func plainCharactersControlsAndUTF8() {
    #expect(keys("ab ?") == [.char("a"), .char("b"), .char(" "), .char("?")])
    #expect(keys("\r\n\t\u{7F}\u{08}") == [.enter, .enter, .tab, .backspace, .backspace])
    #expect(keys("\u{03}\u{15}") == [.ctrl("c"), .ctrl("u")])
    #expect(keys("写真") == [.char("写"), .char("真")])
    #expect(events([0xFF, 0x61]) == [.key(.char("a"))])
  }

  @Test func aSequenceSplitAcrossReadsIsJoined() {
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.decode(Array("[".utf8)).isEmpty)
    #expect(decoder.waiting == .escapeDelay)
    #expect(decoder.decode(Array("C".utf8)) == [.key(.right)])
    #expect(decoder.waiting == .none)
    #expect(decoder.decode([0xE5, 0x86]).isEmpty)
    #expect(decoder.decode([0x99]) == [.key(.char("写"))])
  }

  @Test func everyByteAloneNeverCancels() {
    // No single byte other than ESC itself and the controls that are keys
    // decodes to Esc: a stray byte can never cancel.
    for value in UInt8(0)...UInt8(255) where value != 0x1B {
      #expect(!events([0x1B, value]).contains(.key(.escape)), "ESC \(value)")
    }
  }
}

@Suite struct InputDecoderMouseTests {
  @Test func sgrReports() {
    #expect(
      events(Array("\u{1B}[<0;5;3M".utf8))
        == [.mouse(MouseReport(button: .left, isPress: true, x: 4, y: 2))])
    #expect(
      events(Array("\u{1B}[<0;5;3m".utf8))
        == [.mouse(MouseReport(button: .left, isPress: false, x: 4, y: 2))])
    #expect(
      events(Array("\u{1B}[<65;1;1M".utf8))
        == [.mouse(MouseReport(button: .wheelDown, isPress: true, x: 0, y: 0))])
  }

  @Test func x10Reports() {
    // Press of button 1 at (10, 5), then the release (code 3).
    let bytes: [UInt8] = [0x1B, 0x5B, 0x4D, 32, 33 + 10, 33 + 5, 0x1B, 0x5B, 0x4D, 35, 33 + 10, 33 + 5]
    #expect(
      events(bytes) == [
        .mouse(MouseReport(button: .left, isPress: true, x: 10, y: 5)),
        .mouse(MouseReport(button: .left, isPress: false, x: 10, y: 5)),
      ])
  }

  @Test func clicksAndDoubleClicks() {
    var tracker = ClickTracker(interval: 0.3)
    let press = MouseReport(button: .left, isPress: true, x: 3, y: 4)
    #expect(tracker.event(for: press, at: 1.0)?.kind == .click)
    #expect(tracker.event(for: MouseReport(button: .left, isPress: false, x: 3, y: 4), at: 1.05) == nil)
    #expect(tracker.event(for: press, at: 1.2)?.kind == .doubleClick)
    #expect(tracker.event(for: press, at: 2.0)?.kind == .click)
    #expect(tracker.event(for: press, at: 2.5)?.kind == .click)  // too slow for a double
    #expect(tracker.event(for: MouseReport(button: .wheelUp, isPress: true, x: 0, y: 0), at: 3)?.kind == .wheelUp)
  }

  @Test func movesWithTheLeftButtonHeldAreDrags() {
    // SGR: button 0 with the motion bit (32) while held, at (118, 20).
    guard case .mouse(let report)? = events(Array("\u{1B}[<32;119;21M".utf8)).first else {
      Issue.record("no mouse report")
      return
    }
    #expect(report.isMotion && report.button == .left && report.x == 118 && report.y == 20)
    var tracker = ClickTracker(interval: 0.3)
    #expect(tracker.event(for: report, at: 1.0) == MouseEvent(kind: .drag, x: 118, y: 20))
    // Motion with no button held (any-motion tracking) is no event.
    let hover = MouseReport(button: .other, isPress: true, isMotion: true, x: 1, y: 1)
    #expect(tracker.event(for: hover, at: 1.1) == nil)
  }
}

@Suite struct InputDecoderReplyTests {
  @Test func deviceAttributes() {
    #expect(
      events(Array("\u{1B}[?63;1;2;4;6;9;15;16;22;28c".utf8))
        == [.reply(.primaryAttributes([63, 1, 2, 4, 6, 9, 15, 16, 22, 28]))])
    #expect(events(Array("\u{1B}[?62;c".utf8)) == [.reply(.primaryAttributes([62]))])
    #expect(events(Array("\u{1B}[>1;10;0c".utf8)) == [.reply(.secondaryAttributes([1, 10, 0]))])
  }

  @Test func kittyVersionAndGraphicsReplies() {
    #expect(events(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)) == [.reply(.kittyGraphics(id: 31, message: "OK"))])
    #expect(
      events(Array("\u{1B}_Gi=7,p=1;ENOENT:no such image\u{1B}\\".utf8))
        == [.reply(.kittyGraphics(id: 7, message: "ENOENT:no such image"))])
    #expect(events(Array("\u{1B}P>|XTerm(379)\u{1B}\\".utf8)) == [.reply(.version("XTerm(379)"))])
    #expect(events(Array("\u{1B}]11;rgb:0000/0000/0000\u{07}".utf8)) == [.reply(.otherString)])
  }

  @Test func graphicsAttributesAndWindowReports() {
    #expect(
      events(Array("\u{1B}[?1;0;1024S".utf8)) == [.reply(.graphicsAttribute(item: 1, status: 0, values: [1024]))])
    #expect(
      events(Array("\u{1B}[?2;0;1000;1000S".utf8))
        == [.reply(.graphicsAttribute(item: 2, status: 0, values: [1000, 1000]))])
    #expect(events(Array("\u{1B}[6;17;8t".utf8)) == [.reply(.windowReport(kind: 6, first: 17, second: 8))])
    #expect(events(Array("\u{1B}[4;408;640t".utf8)) == [.reply(.windowReport(kind: 4, first: 408, second: 640))])
  }

  @Test func repliesSplitAcrossReadsAndInterleavedWithKeys() {
    var decoder = InputDecoder()
    var got = decoder.decode(Array("j\u{1B}_Gi=31;O".utf8))
    #expect(decoder.waiting == .replyDelay)
    got += decoder.decode(Array("K\u{1B}".utf8))
    got += decoder.decode(Array("\\\u{1B}[C\u{1B}[?6".utf8))
    got += decoder.decode(Array("2;4c ".utf8))
    #expect(
      got == [
        .key(.char("j")), .reply(.kittyGraphics(id: 31, message: "OK")), .key(.right),
        .reply(.primaryAttributes([62, 4])), .key(.char(" ")),
      ])
  }

  @Test func aReplyTimedOutHalfWayNeverBecomesKeys() {
    var decoder = InputDecoder()
    #expect(decoder.decode(Array("\u{1B}P>|XTerm(3".utf8)).isEmpty)
    #expect(decoder.timeOut().isEmpty)
    // Its rest is awaited a little longer, then given up on too.
    #expect(decoder.waiting == .replyDelay)
    #expect(decoder.timeOut().isEmpty)
    #expect(decoder.waiting == .none)
    #expect(decoder.decode(Array("j".utf8)) == [.key(.char("j"))])
  }

  @Test func theRestOfAReplyCutByTheDeadlineIsNotReadAsKeys() {
    var decoder = InputDecoder()
    #expect(decoder.decode(Array("\u{1B}_Gi=31;O".utf8)).isEmpty)
    #expect(decoder.timeOut().isEmpty)
    #expect(decoder.decode(Array("K\u{1B}\\j".utf8)) == [.key(.char("j"))])
    #expect(decoder.decode(Array("\u{1B}[?62;".utf8)).isEmpty)
    #expect(decoder.timeOut().isEmpty)
    #expect(decoder.decode(Array("4c=x".utf8)) == [.key(.char("=")), .key(.char("x"))])
  }

  @Test func overLongStringsAreSkippedToTheirEnd() {
    var decoder = InputDecoder()
    let body = [UInt8](repeating: UInt8(ascii: "A"), count: InputDecoder.maxSequenceBytes + 10)
    #expect(decoder.decode(Array("\u{1B}_G".utf8) + body).isEmpty)
    #expect(decoder.decode(body).isEmpty)
    #expect(decoder.decode(Array("\u{1B}\\x".utf8)) == [.key(.char("x"))])
  }
}
