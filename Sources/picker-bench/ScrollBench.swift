import ArgumentParser
import Foundation
import PickerTUI

/// Scrolls a folder to its end through the real loop, pipeline and graphics
/// writer, a page at a time once the page's thumbnails are on screen (as a
/// person looking at them would), and reports the memory it took.
struct ScrollBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scroll", abstract: "Memory after scrolling a folder to its end, headless.")

  @Argument(help: "The folder to scroll through.")
  var folder: String

  @Option(name: .customLong("protocol"), help: "Pixel thumbnails for kitty, sixel or iterm2 (default: symbols).")
  var graphics: GraphicsProtocol?

  @Option(help: "One cell in pixels, as WxH.")
  var cellSize = "8x17"

  @Option(help: "Terminal size in cells, as WxH.")
  var size = "120x40"

  func run() throws {
    let cells = try PixelsBench.size(size, "--size")
    let cell = try PixelsBench.size(cellSize, "--cell-size")
    let source = FolderSource(root: PathBytes(folder))
    var support = GraphicsSupport()
    support.graphics = graphics
    let terminal = ScriptedTerminal(size: cells, writer: makeGraphicsWriter(for: support))
    var options = AppOptions(showsThumbnails: true, colorDepth: .truecolor)
    if let graphics {
      options.pixelFormat = PixelFormat(graphics: graphics, cellSize: PixelSize(width: cell.width, height: cell.height))
    }
    let cacheRoot = BenchCache.makeRoot()
    defer { BenchCache.remove(cacheRoot) }
    let pipeline = BenchCache.pipeline(root: cacheRoot)
    let loop = BenchCache.loop(sources: [source], options: options, terminal: terminal, pipeline: pipeline)
    var pages = 0
    var photos = 0
    let started = DispatchTime.now().uptimeNanoseconds
    loop.onFrame = { state in
      guard let scope = state.scope, scope.hasLoadedOnce, Self.screenIsDrawn(state) else { return false }
      photos = scope.items.count
      if !scope.offersMore && scope.focus >= scope.cellCount - 1 { return true }
      // PgDn past the last row shows the next page; Enter when its page is late.
      terminal.next = scope.cell(at: scope.focus) == .loadMore ? .enter : .pageDown
      pages += 1
      return false
    }
    _ = loop.run()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    pipeline.shutdown()
    print("photos:          \(photos) in \(pages) screens (\(graphics?.rawValue ?? "symbols"), \(size) cells)")
    print(String(format: "time:            %.1f s", seconds))
    print(String(format: "RSS at the end:  %.1f MB", Double(Self.residentKilobytes()) / 1024))
    print(String(format: "peak RSS:        %.1f MB", Double(FirstPaintBench.peakResidentKilobytes()) / 1024))
    print("graphics bytes:  \(terminal.graphicsBytes)")
  }

  /// Every photo tile on screen has its thumbnail or its error mark.
  static func screenIsDrawn(_ state: AppState) -> Bool {
    guard let scope = state.scope else { return false }
    let layout = state.layout
    let first = scope.scrollRow * layout.columns
    for index in first..<(first + layout.visibleCells) {
      guard case .item(let item)? = scope.cell(at: index), let key = state.thumbnailKey(for: scope.items[item]) else {
        continue
      }
      if state.thumbnails[key] == nil || state.thumbnails[key] == .loading { return false }
    }
    return true
  }

  static func residentKilobytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
  }
}

/// A headless terminal that types keys (one batch) whenever the bench asks.
final class ScriptedTerminal: TerminalBackend {
  private let headless: HeadlessTerminal
  var keys: [Key] = []
  var next: Key? {
    get { keys.first }
    set { keys = newValue.map { [$0] } ?? [] }
  }

  init(size: TerminalSize, writer: GraphicsWriter?) { headless = HeadlessTerminal(size: size, writer: writer) }

  var size: TerminalSize { headless.size }
  var pollDescriptors: [Int32] { [] }
  var inputTimeout: Int32 { keys.isEmpty ? -1 : 0 }
  var graphicsBytes: Int { headless.graphicsBytes }

  func readInput() -> [AppEvent] {
    defer { keys = [] }
    return keys.map { .key($0) }
  }

  func draw(_ screen: Screen) { headless.draw(screen) }
  func close() {}
}
