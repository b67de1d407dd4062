import Foundation
import PickerTUI

/// `bench first-paint LIBRARY --exec --timeline`: the real binary from exec
/// to the first frame of Photos with the whole library counted, on an index
/// built before the runs (by a scan, or of `--synthetic N` made-up rows),
/// and the largest resident size a run reached.
struct ExecTimeline {
  var library: String
  var runs: Int
  var cells: TerminalSize
  var synthetic: Int?

  func run() throws {
    let root = BenchCache.makeRoot()
    defer { BenchCache.remove(root) }
    let cacheHome = (root as NSString).deletingLastPathComponent
    let index = LibraryIndex(path: cacheHome + "/picker-tui/library.sqlite")
    let photos: Int
    if let synthetic {
      try IndexBench.addSyntheticRows(synthetic, under: CanonicalRoot.of(PathBytes(library)), to: index)
      photos = synthetic
    } else {
      photos = try index.scan([CanonicalRoot.of(PathBytes(library))]).photos
    }
    let environment = PseudoTerminalRun.pickerEnvironment(term: "xterm-256color", home: cacheHome)
    var frames: [Double] = []
    for _ in 0..<max(1, runs) {
      let terminal = try PseudoTerminalRun(cells: cells, cellPixels: PixelSize(width: 8, height: 17))
      // The breadcrumb says "N of TOTAL" once the first page is in.
      let counted = OutputSearch(Array(" of \(photos)".utf8))
      let timings = try terminal.run(
        [PickerBinary.path, "--thumbnails", "off", "--timeline", library], environment: environment, settle: 0.5,
        quit: "q", firstFrame: { counted.found(in: $0) }, thumbnails: { _ in false },
        done: { $0.firstFrame != nil || $0.exit != nil })
      guard let frame = timings.firstFrame else { throw BenchExit(code: 2, message: "the timeline never showed") }
      frames.append(frame)
    }
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    let sorted = frames.sorted()
    print("photos:                 \(photos)\(synthetic != nil ? " (synthetic rows)" : "")")
    print(
      "exec → first timeline:  median \(String(format: "%.1f", sorted[sorted.count / 2])) ms, min "
        + "\(String(format: "%.1f", sorted[0])) ms, max \(String(format: "%.1f", sorted.last!)) ms over \(frames.count) runs"
    )
    print("peak RSS of a run:      \(usage.ru_maxrss / 1024) MB")
  }
}
