import ArgumentParser
import Foundation
import PickerTUI

/// Pixel thumbnails, measured headless with the picker's own decoders,
/// encoders and writers: bytes a page of 40 sends, the time to encode it,
/// what a page seen before re-sends, and a full-screen preview.
struct PixelsBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pixels",
    abstract: "Escape bytes and encode time per page of 40 pixel thumbnails; preview time.")

  @Argument(help: "The photos: the first 40 make the page; the first one is previewed.")
  var files: [String]

  @Option(name: .customLong("protocol"), help: "kitty, sixel or iterm2.")
  var graphics: GraphicsProtocol = .kitty

  @Option(help: "One terminal cell in pixels, as WxH.")
  var cellSize = "8x17"

  @Option(help: "The preview's area in cells, as WxH (a 120x40 terminal less its status line).")
  var previewCells = "120x39"

  @Option(help: "Timed repetitions; the median is printed.")
  var runs = 5

  @Flag(help: "Print one JSON object.")
  var json = false

  func run() throws {
    let cell = try Self.size(cellSize, "--cell-size")
    let previewArea = try Self.size(previewCells, "--preview-cells")
    let format = PixelFormat(graphics: graphics, cellSize: PixelSize(width: cell.width, height: cell.height))
    let paths = files.prefix(40).map { PathBytes($0) }
    guard !paths.isEmpty else { throw ValidationError("give at least one photo") }
    let box = PixelRenderer.pixelBox(columns: 16, rows: 8, cellSize: format.cellSize)
    // Decoded once: the page's encode time alone is measured.
    var decoded: [PixelImage] = []
    for path in paths {
      do {
        let image = try ImageDecoder().decode(file: path, covering: box).image
        decoded.append(image.fitted(maxWidth: box.width, maxHeight: box.height))
      } catch {
        throw BenchExit(code: 2, message: "\(path): \(error.message)")
      }
    }
    var encodeTimes: [Double] = []
    var page: [PixelThumbnail] = []
    for _ in 0..<max(1, runs) {
      let start = DispatchTime.now().uptimeNanoseconds
      page = decoded.compactMap { PixelRenderer.render($0, maxColumns: 16, maxRows: 8, format: format) }
      encodeTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    // The bytes the writer sends for the page, then for the same page again
    // after a page elsewhere (kitty keeps images by id).
    let writer = makeGraphicsWriter(
      for: {
        var support = GraphicsSupport(); support.graphics = graphics; return support
      }())!
    let placements = page.enumerated().map { index, image in
      ImagePlacement(x: (index % 8) * 18 + 1, y: (index / 8) * 11 + 3, image: image)
    }
    let firstBytes = Self.frameBytes(writer, placements, full: true)
    _ = Self.frameBytes(writer, [], full: false)
    let againBytes = Self.frameBytes(writer, placements, full: false)
    let previewTimes = try previewTimes(PathBytes(files[0]), area: previewArea, format: format)
    let median = { (values: [Double]) in picker_bench.median(values) ?? 0 }
    if json {
      print(
        String(
          format:
            "{\"protocol\":\"%@\",\"page\":%d,\"page_bytes\":%d,\"page_again_bytes\":%d,\"encode_page_ms\":%.2f,"
            + "\"preview_ms\":%.2f}",
          graphics.rawValue, page.count, firstBytes, againBytes, median(encodeTimes), median(previewTimes)))
    } else {
      print("protocol:            \(graphics.rawValue), cell \(cell.width)x\(cell.height) px, tiles 16x8 cells")
      print("page of \(page.count):          \(firstBytes) escape bytes (\(firstBytes / max(1, page.count)) per image)")
      print("same page again:     \(againBytes) bytes")
      print(String(format: "encode the page:     median %.1f ms over %d runs (one thread)", median(encodeTimes), runs))
      print(
        String(
          format: "preview:             median %.1f ms (decode + encode %@ for %dx%d cells)", median(previewTimes),
          files[0], previewArea.width, previewArea.height))
    }
  }

  /// Decode and encode of one photo for the whole screen, as `v` does.
  private func previewTimes(_ path: PathBytes, area: TerminalSize, format: PixelFormat) throws -> [Double] {
    let box = PixelRenderer.pixelBox(columns: area.width, rows: area.height, cellSize: format.cellSize)
    var times: [Double] = []
    for _ in 0..<max(1, runs) {
      let start = DispatchTime.now().uptimeNanoseconds
      let side = max(box.width, box.height)
      let image = try ImageDecoder().decode(file: path, covering: PixelSize(width: side, height: side)).image
      guard PixelRenderer.render(image, maxColumns: area.width, maxRows: area.height, format: format) != nil else {
        throw BenchExit(code: 2, message: "cannot encode \(path)")
      }
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return times
  }

  private static func frameBytes(_ writer: GraphicsWriter, _ placements: [ImagePlacement], full: Bool) -> Int {
    var screen = Screen(width: 160, height: 60)
    screen.images = placements
    _ = writer.prepare(&screen, fullRedraw: full)
    return writer.finish(screen, changed: ChangedCells(width: 160, height: 60), fullRedraw: full).count
  }

  static func size(_ text: String, _ option: String) throws -> TerminalSize {
    let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw ValidationError("\(option) must look like 8x17") }
    return TerminalSize(width: parts[0], height: parts[1])
  }

  /// How pictures are drawn for `--protocol NAME` (kitty, sixel, iterm2,
  /// or symbols) and `--cell-size WxH`.
  static func style(_ graphics: String, cellSize: String) throws -> ThumbnailStyle {
    if graphics == "symbols" { return .symbols(.truecolor) }
    let cell = try size(cellSize, "--cell-size")
    return .pixels(
      PixelFormat(
        graphics: GraphicsProtocol(rawValue: graphics) ?? .kitty,
        cellSize: PixelSize(width: cell.width, height: cell.height)))
  }
}

/// Text set on one thread and read on another (a worker's result).
final class LockedText: @unchecked Sendable {
  private let lock = NSLock()
  private var text: String?
  func set(_ value: String) { lock.withLock { text = value } }
  func get() -> String? { lock.withLock { text } }
}

extension GraphicsProtocol: ExpressibleByArgument {}
