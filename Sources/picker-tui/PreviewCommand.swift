import ArgumentParser
import Foundation
import PickerTUI

/// `picker-tui preview FILE`: one photo printed for the terminal, sized for
/// a preview pane (fzf's `--preview`, lf's `previewer`, yazi, ranger).
struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Print one photo for the terminal (for fzf --preview, lf's previewer).",
    discussion: """
      The size comes from --size, else FZF_PREVIEW_COLUMNS and FZF_PREVIEW_LINES, else the \
      terminal. auto draws what the picker would in the same terminal. Run straight from a \
      shell, it asks the terminal, as the picker does. Run by another program (fzf, lf: its \
      output is not the terminal), it asks nothing (that program owns the terminal) and the \
      terminal's variables tell: kitty images in kitty and Konsole, sixel in foot and mlterm, \
      iTerm2 images in iTerm2 and WezTerm, block symbols elsewhere and inside tmux.
      """)

  @Argument(help: "The photo file.")
  var file: String

  @Option(help: "The area in cells, as COLUMNSxROWS.")
  var size: String?

  @Option(
    name: [.customLong("thumbnails"), .customLong("format")],
    help: "How to draw: auto, kitty, sixel, iterm2 or symbols (--format is the former name).")
  var thumbnails: ThumbnailMode = .auto

  @Flag(help: "Print the photo's facts (size, camera, exposure, place) below it.")
  var facts = false

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    guard var area = try cellArea(environment: environment) else {
      throw PickerExit(code: 2, message: "cannot tell the preview's size: give --size COLUMNSxROWS")
    }
    let factRows = facts ? FactsReader.read(PathBytes(file), name: (file as NSString).lastPathComponent).rows : []
    if facts { area.height = max(1, area.height - factRows.count - 1) }
    let (graphics, cell) = Self.graphics(for: thumbnails, environment: environment)
    let box =
      graphics == nil
      ? CellRenderer.pixelBox(columns: area.width, rows: area.height)
      : PixelRenderer.pixelBox(columns: area.width, rows: area.height, cellSize: cell)
    let decoded: DecodedImage
    do {
      decoded = try StandardDescriptors.silencingLibraryMessages { () throws(ImageDecodingError) in
        try ImageDecoder().decode(file: PathBytes(file), covering: box)
      }
    } catch {
      throw PickerExit(code: 1, message: "\(file): \(error.message)")
    }
    let image = decoded.image.fitted(maxWidth: box.width, maxHeight: box.height)
    var out: [UInt8] = []
    if let graphics {
      let pixelFormat = PixelFormat(graphics: graphics, cellSize: cell)
      guard let encoded = PixelRenderer.render(image, maxColumns: area.width, maxRows: area.height, format: pixelFormat)
      else { throw PickerExit(code: 1, message: "\(file): cannot encode the image") }
      out += graphics == .kitty ? KittyEncoding.display(encoded) : encoded.payload
      out += Array("\n".utf8)
    } else {
      let depth: ColorDepth =
        ["truecolor", "24bit"].contains(environment["COLORTERM"] ?? "") ? .truecolor : .palette256
      guard let cells = CellRenderer.render(image, maxColumns: area.width, maxRows: area.height, depth: depth) else {
        throw PickerExit(code: 1, message: "\(file): cannot render the image")
      }
      out += ANSIText.lines(cells)
    }
    for (label, value) in factRows {
      out += Array("\(label.padding(toLength: 12, withPad: " ", startingAt: 0))\(Sanitizer.sanitize(value))\n".utf8)
    }
    try OutputWriter.write([PathBytes(out)], separator: UInt8(ascii: "\n"), trailing: false)
  }

  private func cellArea(environment: [String: String]) throws -> TerminalSize? {
    if let size {
      let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
      guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
        throw ValidationError("--size must look like 80x24")
      }
      return TerminalSize(width: parts[0], height: parts[1])
    }
    if let columns = environment["FZF_PREVIEW_COLUMNS"].flatMap(Int.init),
      let lines = environment["FZF_PREVIEW_LINES"].flatMap(Int.init), columns > 0, lines > 0
    {
      return TerminalSize(width: columns, height: lines)
    }
    guard TerminalProbe.openTerminal() else { return nil }
    return TerminalProbe.currentWindow().cells
  }

  /// How to draw, and the cell size in pixels. Forced by --thumbnails; on
  /// auto, asked of the terminal when this process has it to itself (its
  /// output is the terminal, in the foreground), else read from the
  /// environment.
  static func graphics(for mode: ThumbnailMode, environment: [String: String]) -> (GraphicsProtocol?, PixelSize) {
    switch mode {
    case .kitty: return (.kitty, cellSize())
    case .sixel: return (.sixel, cellSize())
    case .iterm2: return (.iterm2, cellSize())
    case .symbols, .off: return (nil, cellSize())
    case .auto:
      guard ownsTerminal() else { return (GraphicsDetection.fromEnvironment(environment).graphics, cellSize()) }
      let support = TerminalProbe.run(mode: .auto, environment: environment).support
      // Kitty images in tmux are the picker's placeholder cells, kept up
      // by its screen: a one-off print cannot.
      return (support.usesPlaceholders ? nil : support.graphics, support.cellSize)
    }
  }

  /// Whether the terminal is this process's to ask: its output goes
  /// there and it is in the foreground (not a previewer's child whose
  /// output another program reads).
  static func ownsTerminal() -> Bool {
    guard isatty(1) != 0, TerminalProbe.openTerminal() else { return false }
    return tcgetpgrp(1) == getpgrp()
  }

  /// The terminal's cell in pixels, when the tty says; else 8x16.
  static func cellSize() -> PixelSize {
    guard TerminalProbe.openTerminal() else { return PixelSize(width: 8, height: 16) }
    let window = TerminalProbe.currentWindow()
    if let pixels = window.pixels, let cells = window.cells, cells.width > 0, cells.height > 0,
      pixels.width / cells.width > 0, pixels.height / cells.height > 0
    {
      return PixelSize(width: pixels.width / cells.width, height: pixels.height / cells.height)
    }
    return PixelSize(width: 8, height: 16)
  }
}
