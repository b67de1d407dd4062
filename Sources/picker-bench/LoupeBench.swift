import ArgumentParser
import Foundation
import PickerTUI

/// The preview's loupe through the real pipeline: the first 100% view of a
/// photo (its whole decode included), then pan steps of a third of the
/// view (cut from the kept decode, scaled, encoded for the terminal).
struct LoupeBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "loupe",
    abstract: "Time to the first 100% view of a photo, and per pan step, in the picker's pipeline.")

  @Argument(help: "The photo (a 24 MP camera JPEG, say).")
  var file: String

  @Option(name: .customLong("protocol"), help: "kitty, sixel, iterm2, or symbols.")
  var graphics = "kitty"

  @Option(help: "One terminal cell in pixels, as WxH.")
  var cellSize = "8x17"

  @Option(help: "The picture's area in cells (a 120x40 terminal less the status line and the mini-map).")
  var cells = "103x39"

  @Option(help: "Timed first views (each in a new pipeline) and pan steps; medians are printed.")
  var runs = 5

  func run() throws {
    let area = try PixelsBench.size(cells, "--cells")
    let style = try PixelsBench.style(graphics, cellSize: cellSize)
    var firsts: [Double] = []
    var pans: [Double] = []
    var panBytes: [Double] = []
    for _ in 0..<max(1, runs) {
      let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration())
      var loupe = Loupe(scale: 1)
      firsts.append(try Self.time(pipeline, key(loupe, area: area, style: style)).milliseconds)
      for step in 1...6 {
        loupe.centerX = 0.5 + Double(step % 3 - 1) * 0.08
        loupe.centerY = 0.5 + Double(step % 2) * 0.05
        let (milliseconds, bytes) = try Self.time(pipeline, key(loupe, area: area, style: style))
        pans.append(milliseconds)
        panBytes.append(Double(bytes))
      }
    }
    print(
      String(
        format:
          "loupe %@ 100%%: first view median %.1f ms (whole decode included), pan step median %.1f ms, %.0f KB sent",
        graphics, median(firsts), median(pans), median(panBytes) / 1000))
  }

  private func key(_ loupe: Loupe, area: TerminalSize, style: ThumbnailStyle) -> ImageRequest.Key {
    ImageRequest.Key(
      reference: .file(PathBytes(file)), columns: area.width, rows: area.height, style: style, loupe: loupe)
  }

  /// Milliseconds from asking to the result, and the bytes a terminal is
  /// sent for it (pixels: the image's payload; symbols: none counted).
  private static func time(_ pipeline: ImagePipeline, _ key: ImageRequest.Key) throws -> (
    milliseconds: Double, bytes: Int
  ) {
    let done = DispatchSemaphore(value: 0)
    let failure = LockedText()
    let size = LockedText()
    let start = DispatchTime.now().uptimeNanoseconds
    pipeline.load(ImageRequest(key: key, priority: 1)) { result in
      switch result {
      case .failure(let error): failure.set(error.message)
      case .success(.pixels(let pixels)): size.set(String(pixels.payload.count))
      case .success: break
      }
      done.signal()
    }
    done.wait()
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    if let message = failure.get() { throw BenchExit(code: 2, message: message) }
    return (milliseconds, Int(size.get() ?? "0") ?? 0)
  }

  private func median(_ values: [Double]) -> Double { picker_bench.median(values) ?? 0 }
}
