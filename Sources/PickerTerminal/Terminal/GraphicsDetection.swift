import Foundation

/// How thumbnails are drawn: `--thumbnails` and the config's `thumbnails`.
public enum ThumbnailMode: String, CaseIterable, Sendable {
  /// Pixels where the terminal answers that it can draw them, else symbols.
  case auto
  case kitty, sixel, iterm2
  /// libchafa block symbols in the terminal's colours.
  case symbols
  /// Captions only.
  case off
}

/// A way of drawing real pixels in a terminal.
public enum GraphicsProtocol: String, Hashable, Sendable {
  case kitty, sixel, iterm2
}

/// What the terminal said about itself in answer to the start-up queries.
public struct TerminalFacts: Hashable, Sendable {
  /// DA1's attributes; nil when it never answered.
  public var attributes: [Int]?
  /// The kitty graphics query was answered OK.
  public var kittyGraphics = false
  /// The terminal read the query's picture from a temporary file: it runs
  /// on this machine and can be sent pictures as files.
  public var kittyReadsFiles = false
  /// XTVERSION, e.g. "XTerm(379)" or "kitty(0.26.5)".
  public var version: String?
  /// XTSMGRAPHICS: sixel colour registers, and the largest sixel image.
  public var colorRegisters: Int?
  public var sixelMaxSize: PixelSize?
  /// CSI 16 t: one cell in pixels.
  public var cellSize: PixelSize?
  /// CSI 14 t and CSI 18 t: the text area in pixels and in cells.
  public var textAreaPixels: PixelSize?
  public var textAreaCells: TerminalSize?

  public init() {}

  /// DA1 came: every terminal answers it, so it ends the wait.
  public var isComplete: Bool { attributes != nil }

  public mutating func absorb(_ reply: TerminalReply) {
    switch reply {
    case .primaryAttributes(let values): attributes = values
    case .kittyGraphics(let id, let message):
      if id == GraphicsDetection.queryImageID && message == "OK" { kittyGraphics = true }
      if id == GraphicsDetection.fileQueryImageID && message == "OK" { kittyReadsFiles = true }
    case .version(let text): version = text
    case .graphicsAttribute(let item, let status, let values):
      guard status == 0 else { return }
      if item == 1, let registers = values.first { colorRegisters = registers }
      if item == 2, values.count >= 2 { sixelMaxSize = PixelSize(width: values[0], height: values[1]) }
    case .windowReport(let kind, let first, let second):
      guard first > 0, second > 0 else { return }
      switch kind {
      case 6: cellSize = PixelSize(width: second, height: first)
      case 4: textAreaPixels = PixelSize(width: second, height: first)
      case 8: textAreaCells = TerminalSize(width: second, height: first)
      default: break
      }
    case .secondaryAttributes, .otherString: break
    }
  }
}

/// The outcome of detection: how thumbnails will be drawn, and why.
public struct GraphicsSupport: Hashable, Sendable {
  /// Nil: symbols (or captions only with `off`).
  public var graphics: GraphicsProtocol?
  /// Kitty images go as Unicode placeholder cells (inside tmux).
  public var usesPlaceholders = false
  /// Inside tmux, graphics commands are wrapped in its passthrough.
  public var inTmux = false
  /// One cell in pixels (a common 8x16 when nothing better is known).
  public var cellSize = PixelSize(width: 8, height: 16)
  /// Sixel colour registers to use.
  public var colorRegisters = 256
  /// The largest sixel image the terminal draws whole.
  public var sixelMaxSize: PixelSize?
  /// How it was decided, one fact a line (for `--version --verbose`).
  public var reasons: [String] = []
  /// Said once in the footer (e.g. how to let images through tmux).
  public var notice: String?
  /// kitty: the folder the terminal reads pictures from as temporary
  /// files (a terminal on this machine); nil sends them in the stream.
  public var kittyFileFolder: String?

  public init() {}
}

/// The start-up queries and what their answers mean. The I/O (raw mode,
/// the deadline) is the terminal backend's; this part is pure.
public enum GraphicsDetection {
  /// The id of the 1x1 image the kitty query names (never displayed).
  public static let queryImageID = 31
  /// The id of the second kitty query, whose 1x1 picture is a temporary
  /// file: only a terminal on this machine can read it.
  public static let fileQueryImageID = 32

  /// One batch, DA1 last as the sentinel: kitty graphics query (and, given
  /// `kittyFile`, a 1x1 RGB temporary file, the one that asks whether
  /// pictures may go as files), XTVERSION, XTSMGRAPHICS (colour registers,
  /// sixel geometry), cell size, text area in pixels and cells, DA1.
  /// `kitty` false leaves the kitty queries out (see `mayAskKitty`).
  public static func queries(kitty: Bool = true, kittyFile: String? = nil) -> [UInt8] {
    let esc = "\u{1B}"
    let file = kittyFile.map { Data($0.utf8).base64EncodedString() }
    let parts =
      (kitty ? ["\(esc)_Gi=\(queryImageID),s=1,v=1,a=q,t=d,f=24;AAAA\(esc)\\"] : [])
      + (kitty && file != nil ? ["\(esc)_Gi=\(fileQueryImageID),s=1,v=1,a=q,t=t,f=24;\(file!)\(esc)\\"] : []) + [
        "\(esc)[>0q",
        "\(esc)[?1;1;0S",
        "\(esc)[?2;1;0S",
        "\(esc)[16t",
        "\(esc)[14t",
        "\(esc)[18t",
        "\(esc)[c",
      ]
    return Array(parts.joined().utf8)
  }

  /// XTVERSION and DA1 alone: asked first where a multiplexer may be in
  /// the way unseen, since neither becomes anything on its screen.
  public static let identityQueries = Array("\u{1B}[>0q\u{1B}[c".utf8)

  /// A multiplexer answered for itself (tmux names itself in XTVERSION):
  /// an APC string sent to it would become the pane's title.
  public static func isMultiplexer(_ facts: TerminalFacts) -> Bool {
    guard let version = facts.version?.lowercased() else { return false }
    return version.hasPrefix("tmux") || version.hasPrefix("screen")
  }

  /// Whether the kitty query (an APC string) may be sent. Under tmux or
  /// screen that the picker cannot address (TERM says so, but $TMUX is not
  /// there, as over ssh from a tmux pane), it cannot be wrapped for
  /// passthrough, and tmux 3.3 would take it as the pane's title.
  public static func mayAskKitty(environment: [String: String]) -> Bool {
    let term = environment["TERM"] ?? ""
    let multiplexed = term.hasPrefix("tmux") || term.hasPrefix("screen")
    return !multiplexed || !(environment["TMUX"] ?? "").isEmpty
  }

  /// Wraps bytes in tmux's passthrough (`ESC Ptmux; … ESC \`, every inner
  /// ESC doubled) so they reach the terminal tmux runs in. The sentinel DA1
  /// goes through too: tmux would answer a bare one itself, at once.
  public static func tmuxPassthrough(_ bytes: [UInt8]) -> [UInt8] {
    var wrapped = Array("\u{1B}Ptmux;".utf8)
    wrapped.reserveCapacity(bytes.count + bytes.count / 8 + 8)
    for byte in bytes {
      if byte == 0x1B { wrapped.append(0x1B) }
      wrapped.append(byte)
    }
    wrapped += Array("\u{1B}\\".utf8)
    return wrapped
  }

  /// Decides how to draw. `passthrough` is tmux's `allow-passthrough`
  /// (nil outside tmux); `windowPixels` the tty's own pixel size and
  /// `windowCells` its size in cells (TIOCGWINSZ), the fallback for the
  /// cell size.
  public static func decide(
    mode: ThumbnailMode, facts: TerminalFacts, environment: [String: String], passthrough: Bool?,
    windowPixels: PixelSize?, windowCells: TerminalSize?, kittyFileFolder: String? = nil
  ) -> GraphicsSupport {
    var support = GraphicsSupport()
    support.inTmux = passthrough != nil
    support.cellSize = cellSize(facts: facts, windowPixels: windowPixels, windowCells: windowCells, into: &support)
    if let registers = facts.colorRegisters { support.colorRegisters = max(2, min(registers, 256)) }
    support.sixelMaxSize = facts.sixelMaxSize
    let name = facts.version ?? environment["TERM_PROGRAM"]
    if let attributes = facts.attributes {
      support.reasons.append("DA1 attributes: \(attributes.map(String.init).joined(separator: ";"))")
    } else {
      support.reasons.append("no DA1 answer before the deadline")
    }
    if let name { support.reasons.append("terminal: \(name)") }
    if facts.kittyGraphics { support.reasons.append("kitty graphics query answered OK") }
    switch mode {
    case .off, .symbols:
      support.reasons.append("--thumbnails \(mode.rawValue)")
      return support
    case .kitty, .sixel, .iterm2:
      support.graphics = GraphicsProtocol(rawValue: mode.rawValue)
      support.reasons.append("--thumbnails \(mode.rawValue) (forced)")
    case .auto:
      if passthrough == false {
        support.reasons.append("inside tmux with allow-passthrough off: symbols")
        support.notice = "pixel thumbnails: tmux set -g allow-passthrough on"
        return support
      }
      support.graphics = automatic(facts: facts, name: name, inTmux: passthrough != nil)
      support.reasons.append("chosen: \(support.graphics?.rawValue ?? "symbols")")
    }
    // tmux moves text, not images: kitty images there are placeholder
    // cells that tmux moves like text.
    support.usesPlaceholders = support.inTmux && support.graphics == .kitty
    if support.graphics == .kitty && !support.usesPlaceholders, let folder = kittyFileFolder, facts.kittyReadsFiles {
      support.kittyFileFolder = folder
      support.reasons.append("kitty read the query's temporary file: pictures go as files in \(folder)")
    }
    return support
  }

  /// What the environment alone says the terminal draws, as the picker's
  /// queries would find it there: for `preview`, run where another program
  /// (fzf, lf) owns the terminal and no query can be made. nil: symbols.
  public static func fromEnvironment(_ environment: [String: String]) -> (graphics: GraphicsProtocol?, reason: String) {
    let term = environment["TERM"] ?? ""
    func has(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
    if has("TMUX") || term.hasPrefix("tmux") || term.hasPrefix("screen") {
      return (nil, "inside tmux or screen: symbols (images there need the picker's own placement)")
    }
    if has("KITTY_WINDOW_ID") || term == "xterm-kitty" { return (.kitty, "kitty (KITTY_WINDOW_ID or TERM)") }
    if has("KONSOLE_VERSION") { return (.kitty, "Konsole (KONSOLE_VERSION): it answers the kitty query") }
    if term.hasPrefix("foot") { return (.sixel, "foot (TERM=\(term))") }
    if has("MLTERM") || term == "mlterm" { return (.sixel, "mlterm (MLTERM or TERM)") }
    let program = (environment["TERM_PROGRAM"] ?? "").lowercased()
    if program.contains("iterm") || program.contains("wezterm") {
      return (.iterm2, "TERM_PROGRAM=\(environment["TERM_PROGRAM"] ?? "")")
    }
    if has("XTERM_VERSION") {
      return (nil, "xterm: sixel only in VT340 mode, which only a query tells (use --thumbnails sixel)")
    }
    return (nil, "no terminal known from TERM, TERM_PROGRAM and the terminals' own variables: symbols")
  }

  private static func automatic(facts: TerminalFacts, name: String?, inTmux: Bool) -> GraphicsProtocol? {
    if facts.kittyGraphics { return .kitty }
    // Sixel and iTerm2 images are cells' worth of pixels that tmux does not
    // know of: it would paint over them or leave them behind.
    if inTmux { return nil }
    if facts.attributes?.contains(4) == true { return .sixel }
    let lower = (name ?? "").lowercased()
    if lower.contains("iterm") || lower.contains("wezterm") { return .iterm2 }
    return nil
  }

  private static func cellSize(
    facts: TerminalFacts, windowPixels: PixelSize?, windowCells: TerminalSize?,
    into support: inout GraphicsSupport
  ) -> PixelSize {
    if let size = facts.cellSize, size.width > 0, size.height > 0 {
      support.reasons.append("cell \(size.width)x\(size.height) px (CSI 16 t)")
      return size
    }
    if let pixels = facts.textAreaPixels, let cells = facts.textAreaCells ?? windowCells, cells.width > 0,
      cells.height > 0
    {
      let size = PixelSize(width: pixels.width / cells.width, height: pixels.height / cells.height)
      if size.width > 0 && size.height > 0 {
        support.reasons.append("cell \(size.width)x\(size.height) px (CSI 14 t)")
        return size
      }
    }
    if let pixels = windowPixels, let cells = windowCells, cells.width > 0, cells.height > 0 {
      let size = PixelSize(width: pixels.width / cells.width, height: pixels.height / cells.height)
      if size.width > 0 && size.height > 0 {
        support.reasons.append("cell \(size.width)x\(size.height) px (TIOCGWINSZ)")
        return size
      }
    }
    support.reasons.append("cell size unknown: 8x16 px assumed")
    return PixelSize(width: 8, height: 16)
  }
}
