import CNcurses
import Dispatch
import PickerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the terminal could not be opened.
enum TerminalError: Error, CustomStringConvertible {
  case noTerminal
  case unknownTerminal(String)
  case termNotSet
  case cannotAddressCursor(String)

  var description: String {
    switch self {
    case .noTerminal:
      return "no terminal to draw on: /dev/tty cannot be opened (run picker-tui from a terminal)"
    case .unknownTerminal(let name):
      return "unknown terminal type '\(name)' (TERM); try TERM=xterm-256color"
    case .termNotSet:
      return "TERM is not set; set it to your terminal's type, e.g. TERM=xterm-256color"
    case .cannotAddressCursor(let name):
      return "terminal type '\(name)' cannot move the cursor, so no grid can be drawn; try TERM=xterm-256color"
    }
  }
}

/// The ncurses terminal on /dev/tty. The only file that calls curses (its
/// pictures extension and the probe use CNcurses' tty helpers only); it
/// must be used from the main thread only.
package final class NcursesTerminal: TerminalBackend {
  /// "ncurses 6.4.20221231", for `--version --verbose`.
  package static var libraryVersion: String { String(cString: curses_version()) }

  let depth: ColorDepth
  /// How pictures are drawn, as detected or asked for.
  let graphics: GraphicsSupport
  /// What the terminal answered at start.
  let facts: TerminalFacts
  /// The user's locale is UTF-8 (not LANG=C).
  let localeIsUTF8: Bool
  let writer: GraphicsWriter?
  private var screenHandle: OpaquePointer?
  private var previous: Screen?
  private var pairs: [PairKey: Int32] = [:]
  package private(set) var size: TerminalSize
  var input = TerminalInputReader()
  /// Events read before the screen started (keys typed during detection).
  private var typedAhead: [TerminalInputEvent] = []

  private struct PairKey: Hashable {
    var foreground: Int32
    var background: Int32
  }

  /// Opens the terminal. `requested` nil means: as many colours as the
  /// terminal has, none under NO_COLOR. Before ncurses starts, the terminal
  /// is asked what it can draw (`thumbnails` auto), or told (a protocol).
  /// `libraryMessages`: where stderr goes while the screen is up (libraries
  /// print there on damaged images); nil for /dev/null.
  init(
    requested: ColorDepth?, environment: [String: String], thumbnails: ThumbnailMode = .symbols,
    libraryMessages: Int32? = nil
  ) throws {
    localeIsUTF8 = Self.selectUTF8Locale()
    pk_set_stderr_target(libraryMessages ?? -1)
    pk_install_signal_handlers()
    guard let term = environment["TERM"], !term.isEmpty else { throw TerminalError.termNotSet }
    guard pk_open_tty() >= 0 else { throw TerminalError.noTerminal }
    // Any failure from here on leaves the tty as it found it, closed: a
    // host that carries on (or asks again) keeps no descriptor of ours.
    var started = false
    defer { if !started { pk_close_tty() } }
    // An unknown terminal is refused before any query is written to it,
    // where it would show as garbage.
    let termColors = pk_terminfo_colors(term)
    guard termColors >= 0 else { throw TerminalError.unknownTerminal(term) }
    let probe = TerminalProbe.run(mode: thumbnails, environment: environment)
    typedAhead = probe.typedAhead
    // Over ssh a sequence can come in two packets: a longer wait keeps an
    // arrow key from turning into Esc (which would cancel).
    input = TerminalInputReader(
      escapeDelay: environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil ? 0.1 : 0.04,
      decoder: probe.decoder)
    facts = probe.facts
    // The probe's own DA1 answer may still come, after its deadline.
    if !probe.facts.isComplete { pictures.flow?.expectLateAnswer(now: MonotonicClock.now) }
    var support = probe.support
    let plan = Self.colorPlan(
      requested: requested, environment: environment, usesPlaceholders: support.usesPlaceholders)
    var status = PK_OPEN_OK
    var handle = pk_open_terminal(plan.terminfoName, &status)
    if status == PK_OPEN_NO_TTY { throw TerminalError.noTerminal }
    // A *-direct entry that will not start: the plain one, fewer colours.
    if handle == nil && plan.terminfoName != term { handle = pk_open_terminal(term, &status) }
    guard let handle else {
      throw status == PK_OPEN_NO_TTY ? TerminalError.noTerminal : TerminalError.unknownTerminal(term)
    }
    screenHandle = handle
    guard pk_can_address_cursor() != 0 else {
      pk_close_terminal(handle)
      throw TerminalError.cannotAddressCursor(term)
    }
    let available = ColorDepth.forTerminal(colors: Int(pk_terminal_colors()))
    var chosen = plan.depth
    if ColorPlan.rank(chosen) > ColorPlan.rank(available) { chosen = available }
    depth = chosen
    // Placeholder cells name their image by a 256-colour foreground: with
    // fewer colours, ids would collide and tiles would show other photos.
    if support.usesPlaceholders && chosen != .palette256 {
      support.graphics = nil
      support.usesPlaceholders = false
      support.reasons.append("kitty placeholder ids need 256 colours, the pane has \(chosen.rawValue): symbols")
    }
    graphics = support
    writer = makeGraphicsWriter(for: support)
    pk_configure_screen(chosen == .none ? 0 : 1)
    _ = pk_enable_mouse()
    pk_install_resize_wakeup()
    pk_install_suspend_handler()
    pk_install_crash_handler()
    size = TerminalSize(width: Int(getmaxx(pk_stdscr())), height: Int(getmaxy(pk_stdscr())))
    started = true
  }

  package var pollDescriptors: [Int32] { [pk_tty_fd(), pk_signal_fd()].filter { $0 >= 0 } }

  package func readInput() -> [AppEvent] {
    // A termination signal came (maybe while stopped, `kill %1`): the loop
    // ends next; reading the terminal now, perhaps the shell's again, would
    // stop the picker (SIGTTIN) with nothing to continue it.
    if pk_signal_pending() != 0 { return [] }
    pk_drain_wakeups()
    var inputs: [AppEvent] = []
    if pk_take_resync() != 0 { inputs.append(resync()) }
    let repliesBefore = input.attributeReplies
    inputs += input.inputs(from: typedAhead)
    typedAhead = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var bytes: [UInt8] = []
    while true {
      let count = buffer.withUnsafeMutableBufferPointer { pk_read_input($0.baseAddress, UInt($0.count)) }
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    inputs += input.read(bytes)
    let now = MonotonicClock.now
    for _ in repliesBefore..<input.attributeReplies { pictures.answered(now: now) }
    return inputs
  }

  /// Milliseconds until an unfinished sequence must be decided (or a
  /// question about picture bytes given up on), or -1.
  package var inputTimeout: Int32 {
    let sequence = input.timeout
    guard let left = pictures.timeoutLeft(now: MonotonicClock.now) else { return sequence }
    let question = Int32((left * 1000).rounded(.up))
    return sequence < 0 ? question : min(sequence, question)
  }

  /// After a resize or a return from Ctrl-Z: the size may have changed
  /// while nobody was looking, and the screen may hold anything.
  private func resync() -> AppEvent {
    var rows: Int32 = 0
    var columns: Int32 = 0
    var pixelWidth: Int32 = 0
    var pixelHeight: Int32 = 0
    if pk_window_size(&rows, &columns, &pixelWidth, &pixelHeight) == 0 {
      pk_resync_screen(rows, columns)
    }
    size = TerminalSize(width: Int(getmaxx(pk_stdscr())), height: Int(getmaxy(pk_stdscr())))
    previous = nil
    return .resize(size)
  }

  package func draw(_ screen: Screen) {
    var screen = screen
    let full = previous == nil || previous!.width != screen.width || previous!.height != screen.height
    var repaint: [Int] = []
    if let writer {
      // What the terminal has not begun to read of older pictures is
      // dropped (the writer sends again what this frame still shows); the
      // picture in progress is brought to an end before any text.
      let (ending, undelivered) = pictures.supersede(now: MonotonicClock.now)
      if !ending.isEmpty { _ = ending.withUnsafeBufferPointer { pk_write_tty($0.baseAddress, UInt($0.count)) } }
      writer.undelivered(undelivered)
      repaint = writer.prepare(&screen, fullRedraw: full)
      // ncurses repaints these lines whole: pictures that left are erased.
      for line in repaint where line >= 0 && line < screen.height { wredrawln(pk_stdscr(), Int32(line), 1) }
    }
    var changed = drawCells(of: screen)
    // A reset of the colour pairs in the middle of a frame leaves cells
    // drawn earlier with numbers that now mean other colours: draw again.
    if pairsWereReset {
      previous = nil
      changed = drawCells(of: screen)
    }
    previous = screen
    wnoutrefresh(pk_stdscr())
    doupdate()
    if pk_take_resume_mouse() != 0 { pk_report_drags_again() }
    guard let writer else { return }
    for line in repaint where line >= 0 && line < screen.height {
      for x in 0..<screen.width { changed.mark(x: x, y: line) }
    }
    pictures.append(writer.finishUnits(screen, changed: changed, fullRedraw: full))
    writePending()
    let cleanup = writer.cleanup
    if cleanup != crashCleanup {
      crashCleanup = cleanup
      cleanup.withUnsafeBufferPointer { pk_set_crash_cleanup($0.baseAddress, UInt($0.count)) }
    }
  }

  /// Picture bytes the terminal has not taken yet, sent as it reads them.
  let pictures = GraphicsQueue(flowControl: GraphicsFlowControl())

  /// What the crash handler was last given to delete our images.
  private var crashCleanup: [UInt8] = []

  private var pairsWereReset = false

  /// Draws what changed since the last frame; returns which cells.
  private func drawCells(of screen: Screen) -> ChangedCells {
    var changed = ChangedCells(width: screen.width, height: screen.height)
    guard let window = pk_stdscr() else { return changed }
    pairsWereReset = false
    let full = previous == nil || previous!.width != screen.width || previous!.height != screen.height
    if full { werase(window) }
    var wide: [wchar_t] = [0, 0, 0, 0, 0, 0]
    for y in 0..<screen.height {
      var tail = screen.width
      while tail > 0 && screen[tail - 1, y] == .blank { tail -= 1 }
      changed.setBlankTail(tail, line: y)
      for x in 0..<screen.width {
        let cell = screen[x, y]
        if !full, previous![x, y] == cell { continue }
        changed.mark(x: x, y: y)
        if cell.text.isEmpty { continue }  // the right half of a wide character
        var count = 0
        for scalar in cell.text.unicodeScalars.prefix(5) {
          wide[count] = wchar_t(bitPattern: scalar.value)
          count += 1
        }
        wide[count] = 0
        let (attributes, pair) = appearance(of: cell.style)
        if pk_put_cell(window, Int32(y), Int32(x), &wide, attributes, pair) == ERR
          && (x, y) != (screen.width - 1, screen.height - 1)
        {
          // A character this locale cannot draw: show that something is there.
          var replacement: [wchar_t] = [0xFFFD, 0]
          _ = pk_put_cell(window, Int32(y), Int32(x), &replacement, attributes, pair)
        }
      }
    }
    return changed
  }

  private func appearance(of style: Style) -> (attr_t, Int32) {
    var attributes = pk_attr_normal
    if style.attributes.contains(.bold) { attributes |= pk_attr_bold }
    if style.attributes.contains(.dim) { attributes |= pk_attr_dim }
    if style.attributes.contains(.reverse) { attributes |= pk_attr_reverse }
    if style.attributes.contains(.underline) { attributes |= pk_attr_underline }
    guard depth != .none else { return (attributes, 0) }
    let key = PairKey(foreground: colorNumber(style.foreground), background: colorNumber(style.background))
    if key.foreground == -1 && key.background == -1 { return (attributes, 0) }
    if let pair = pairs[key] { return (attributes, pair) }
    var pair = alloc_pair(key.foreground, key.background)
    if pair < 0 || pairs.count >= Int(pk_color_pairs()) - 2 {
      // alloc_pair recycles silently when full, repainting cells already on
      // screen; start over with a clean table and a full redraw instead.
      reset_color_pairs()
      pairs.removeAll()
      pairsWereReset = true
      pair = alloc_pair(key.foreground, key.background)
    }
    pairs[key] = pair
    return (attributes, max(0, pair))
  }

  /// The ncurses colour number for a colour at this terminal's depth.
  private func colorNumber(_ color: TermColor) -> Int32 {
    switch color.reduced(to: depth) {
    case nil, .default?: return -1
    case .palette(let index)?:
      // Direct-colour terminfo reads 0-7 as the palette but 8 and up as RGB.
      if depth == .truecolor && index >= 8 { return Self.directRGB(.rgb(TermColor.paletteRGB(index))) }
      return Int32(index)
    case .rgb(let value)?:
      return Self.directRGB(.rgb(value))
    }
  }

  /// RGB values 0-7 would be taken as palette colours; nudge them.
  private static func directRGB(_ color: TermColor) -> Int32 {
    guard case .rgb(let value) = color else { return -1 }
    return Int32(value < 8 ? 8 : value)
  }

  package func close() {
    guard screenHandle != nil else { return }
    // Killed while stopped, the terminal is the shell's: nothing is
    // written to it (the pictures went at the suspend).
    if pk_owns_terminal() != 0 { leavePictures() }
    pk_close_terminal(screenHandle)
    screenHandle = nil
  }

  package func suspendIfAsked() {
    guard screenHandle != nil, pk_take_suspend() != 0 else { return }
    leavePictures()
    pk_suspend()
    // Continued: the screen may hold anything, and the terminal none of
    // our pictures.
    previous = nil
  }

  /// The colours the picker would draw with here, and why fewer (doctor).
  package static func colorPlan(requested: ColorDepth?, environment: [String: String], usesPlaceholders: Bool)
    -> ColorPlan
  {
    ColorPlan.decide(
      requested: requested, environment: environment, term: environment["TERM"] ?? "",
      usesPlaceholders: usesPlaceholders
    ) { name in
      let count = pk_terminfo_colors(name)
      return count >= 0 ? Int(count) : nil
    }
  }

  /// ncurses draws nothing but ASCII unless the locale is UTF-8. Returns
  /// whether the user's own locale was (LANG=C is not: pictographs such as
  /// the source icons then fall back to ASCII).
  private static func selectUTF8Locale() -> Bool {
    setlocale(LC_ALL, "")
    let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
    if codeset.uppercased().filter({ $0 != "-" }) != "UTF8" {
      if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "en_US.UTF-8") }
      return false
    }
    return true
  }
}

extension NcursesTerminal {
  /// The signal recorded since the last call (SIGINT, SIGTERM, SIGHUP,
  /// SIGQUIT), or 0.
  package func takeSignal() -> Int32 { pk_take_signal() }

  package var traits: TerminalTraits {
    TerminalTraits(depth: depth, graphics: graphics, localeIsUTF8: localeIsUTF8)
  }

  /// The process's own signal handlers back, once the terminal is closed
  /// and the sources are stopped.
  static func restoreSignalHandlers() { pk_restore_signal_handlers() }
}
