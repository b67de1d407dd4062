import CNcurses
import Foundation
import PickerCore

/// Asks the terminal, before ncurses takes the screen, what it can draw:
/// one batch of queries, then replies read until the DA1 answer (every
/// terminal answers DA1) or a hard deadline. Keys typed meanwhile are kept
/// for the UI; replies that come after the deadline are recognised by the
/// input decoder later and dropped, never taken for keys.
package struct TerminalProbe {
  /// What was decided, and the keys typed while asking.
  package struct Result {
    package var support: GraphicsSupport
    package var facts: TerminalFacts
    package var typedAhead: [TerminalInputEvent]
    /// Carries on into the UI: an Esc typed at the very end, or the part of
    /// a reply that came before the deadline, is decided there.
    var decoder = InputDecoder()
  }

  /// The wait for answers: short on a local terminal, longer over ssh or
  /// through tmux, never a hang.
  static func deadline(environment: [String: String]) -> Double {
    let remote = environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil
    return remote || environment["TMUX"] != nil ? 0.5 : 0.15
  }

  /// Runs on the tty that `pk_open_tty` opened. Modes `off` and `symbols`
  /// ask nothing.
  package static func run(mode: ThumbnailMode, environment: [String: String]) -> Result {
    let windowCells = currentWindow()
    // Terminals that draw no pictures would show the queries as text.
    let term = environment["TERM"] ?? ""
    let plain =
      ["dumb", "linux", "vt100", "vt102", "vt220", "ansi", "cons25"].contains(term) || term.hasPrefix("linux")
    guard mode != .off && mode != .symbols && !(plain && mode == .auto) else {
      let support = GraphicsDetection.decide(
        mode: mode, facts: TerminalFacts(), environment: environment, passthrough: nil,
        windowPixels: windowCells.pixels, windowCells: windowCells.cells)
      return Result(support: support, facts: TerminalFacts(), typedAhead: [])
    }
    let inTmux = !(environment["TMUX"] ?? "").isEmpty
    let passthrough = inTmux ? tmuxAllowsPassthrough(environment: environment) : nil
    var facts = TerminalFacts()
    var typed: [TerminalInputEvent] = []
    var decoder = InputDecoder()
    // Outside tmux, a second kitty query names a temporary file: a
    // terminal on this machine reads it, and then gets pictures as files.
    var fileFolder: String?
    if passthrough != false {
      var kitty = GraphicsDetection.mayAskKitty(environment: environment)
      // Not addressing tmux, the picker may still be in one (ssh from a
      // pane whose TERM is xterm's): what leaks nothing is asked first,
      // and a multiplexer that names itself gets no kitty query.
      var identity = TerminalFacts()
      if kitty && !inTmux {
        (identity, typed) = exchange(
          GraphicsDetection.identityQueries, deadline: deadline(environment: environment), decoder: &decoder)
        if GraphicsDetection.isMultiplexer(identity) { kitty = false }
      }
      var queryFile: String?
      if kitty && !inTmux && mode != .sixel && mode != .iterm2 {
        fileFolder = KittyFiles.folder(environment: environment)
        queryFile = fileFolder.flatMap { KittyFiles.writeQueryFile(in: $0) }
      }
      var queries = GraphicsDetection.queries(kitty: kitty, kittyFile: queryFile)
      if inTmux { queries = GraphicsDetection.tmuxPassthrough(queries) }
      let typedBefore = typed
      (facts, typed) = exchange(queries, deadline: deadline(environment: environment), decoder: &decoder)
      typed = typedBefore + typed
      if facts.version == nil { facts.version = identity.version }
      // kitty deleted it if it read it.
      if let queryFile { unlink(queryFile) }
    }
    var support = GraphicsDetection.decide(
      mode: mode, facts: facts, environment: environment, passthrough: inTmux ? (passthrough ?? true) : nil,
      windowPixels: windowCells.pixels, windowCells: windowCells.cells, kittyFileFolder: fileFolder)
    if inTmux && passthrough == nil && !facts.isComplete && mode == .auto {
      support.notice = "pixel thumbnails: tmux set -g allow-passthrough on"
    }
    return Result(support: support, facts: facts, typedAhead: typed, decoder: decoder)
  }

  /// Writes the queries in raw mode and reads until DA1 or the deadline.
  private static func exchange(_ queries: [UInt8], deadline seconds: Double, decoder: inout InputDecoder)
    -> (TerminalFacts, [TerminalInputEvent])
  {
    var facts = TerminalFacts()
    var typed: [TerminalInputEvent] = []
    guard pk_raw_mode(1) == 0 else { return (facts, typed) }
    defer { _ = pk_raw_mode(0) }
    guard queries.withUnsafeBufferPointer({ pk_write_tty($0.baseAddress, UInt($0.count)) }) == 0 else {
      return (facts, typed)
    }
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !facts.isComplete {
      let now = DispatchTime.now().uptimeNanoseconds
      guard now < end else { break }
      var ready = pollfd(fd: pk_tty_fd(), events: Int16(POLLIN), revents: 0)
      let waitMilliseconds = Int32(max(1, (end - now) / 1_000_000))
      guard poll(&ready, 1, waitMilliseconds) > 0 else { continue }
      let count = buffer.withUnsafeMutableBufferPointer { pk_read_input($0.baseAddress, UInt($0.count)) }
      if count < 0 { break }  // hung up: nothing more will come
      guard count > 0 else { continue }
      for event in decoder.decode(Array(buffer[0..<count])) {
        if case .reply(let reply) = event { facts.absorb(reply) } else { typed.append(event) }
      }
    }
    return (facts, typed)
  }

  /// `allow-passthrough` of our pane: on, off, or nil when tmux could not
  /// be asked.
  private static func tmuxAllowsPassthrough(environment: [String: String]) -> Bool? {
    var arguments = ["tmux", "show-options", "-Apv"]
    if let pane = environment["TMUX_PANE"], !pane.isEmpty { arguments += ["-t", pane] }
    // A tmux that does not answer in a second is taken as one that said no.
    guard let data = BoundedChild.output(of: arguments + ["allow-passthrough"], seconds: 1) else { return nil }
    let value = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return value == "on" || value == "all"
  }

  /// Opens the controlling terminal (once; it stays open for the queries
  /// and the screen); false when there is none.
  package static func openTerminal() -> Bool { pk_open_tty() >= 0 }

  /// The tty's size in cells and pixels, when it says.
  package static func currentWindow() -> (cells: TerminalSize?, pixels: PixelSize?) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    var width: Int32 = 0
    var height: Int32 = 0
    guard pk_window_size(&rows, &columns, &width, &height) == 0 else { return (nil, nil) }
    let pixels = width > 0 && height > 0 ? PixelSize(width: Int(width), height: Int(height)) : nil
    return (TerminalSize(width: Int(columns), height: Int(rows)), pixels)
  }
}
