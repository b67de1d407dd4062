import ArgumentParser
import Foundation
import PickerTUI

/// Compare (`c`) through the real pipeline: the panes of two to four
/// photos at fit, asked for at once as the picker does, timed until the
/// last is ready (each run in a new pipeline: every decode counted).
struct CompareBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Time until every pane of a compare at fit is ready, in the picker's pipeline.")

  @Argument(help: "Two to four photos (camera JPEGs, say).")
  var files: [String]

  @Option(name: .customLong("protocol"), help: "kitty, sixel, iterm2, or symbols.")
  var graphics = "kitty"

  @Option(help: "One terminal cell in pixels, as WxH.")
  var cellSize = "8x17"

  @Option(help: "The terminal in cells, as WxH.")
  var terminal = "120x40"

  @Option(help: "Timed runs; the median is printed.")
  var runs = 5

  func run() throws {
    guard (2...4).contains(files.count) else { throw BenchExit(code: 2, message: "give two to four photos") }
    let screen = try PixelsBench.size(terminal, "--terminal")
    let style = try PixelsBench.style(graphics, cellSize: cellSize)
    // The status line is the screen's last row.
    let panes = CompareLayout.panes(count: files.count, width: screen.width, height: screen.height - 1)
    var times: [Double] = []
    for _ in 0..<max(1, runs) {
      let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration())
      let done = DispatchGroup()
      let failure = LockedText()
      let start = DispatchTime.now().uptimeNanoseconds
      for (file, pane) in zip(files, panes) {
        let key = ImageRequest.Key(
          reference: .file(PathBytes(file)), columns: pane.width, rows: pane.pictureHeight, style: style)
        done.enter()
        pipeline.load(ImageRequest(key: key, priority: 1)) { result in
          if case .failure(let error) = result { failure.set(error.message) }
          done.leave()
        }
      }
      done.wait()
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      if let message = failure.get() { throw BenchExit(code: 2, message: message) }
    }
    let sorted = times.sorted()
    print(
      String(
        format: "compare %d-up at fit, %@: every pane ready, median %.1f ms (min %.1f, max %.1f)", files.count,
        graphics, sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1]))
  }
}
