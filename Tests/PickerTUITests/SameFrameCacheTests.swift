import Foundation
import PickerTUI
import Testing

/// Thumbnails the pipeline still has in memory come back in the frame that
/// asks for them again: scrolling back never flashes a placeholder.
@Suite struct SameFrameCacheTests {
  @Test func scrollingBackShowsTheThumbnailsInTheFirstFrame() async throws {
    let folder = NSTemporaryDirectory() + "loop-cache-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Real PNGs, decoded by the real pipeline (memory cache only).
    let tiny = PixelImage(width: 8, height: 6, rgba: [UInt8](repeating: 200, count: 8 * 6 * 4))
    let png = try #require(ImageEncoder.encode(tiny, as: .png))
    let names = (1...120).map { String(format: "p%03d.png", $0) }
    for name in names { _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(png)) }

    let source = FolderSource(root: PathBytes(folder))
    let size = TerminalSize(width: 100, height: 30)
    let state = AppState(
      sources: [SourceSummary(source)], options: AppOptions(showsThumbnails: true, colorDepth: .truecolor), size: size)
    let terminal = RecordingTerminal(size: size, script: [])
    let loop = EventLoop(
      state: state, terminal: terminal, sources: [source], pipeline: ImagePipeline(),
      downloader: Downloader(folder: folder, sources: []), theme: .colored)
    let watch = FrameWatch()
    loop.onFrame = { state in
      watch.see(state)
      return false
    }
    terminal.append([
      .waitFor("the first screen's thumbnails", { _ in watch.firstScreenReady }),
      // Three screens down (one batch): the first screen's thumbnails leave
      // the state, but stay in the pipeline's memory cache.
      .input([.key(.pageDown), .key(.pageDown), .key(.pageDown)]),
      .waitFor("the frame three screens down", { _ in watch.wentDown }),
      .input([.key(.home)]),
      .waitFor("the frame back at the top", { _ in watch.backAtTop != nil }),
      .input([.key(.escape)]),
    ])
    let work = Unchecked(loop)
    let end = await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: work.value.run()) }
    }
    #expect(end == .outcome(.cancelled))
    #expect(terminal.timedOut.isEmpty)
    #expect(watch.droppedWhileDown, "the first screen's thumbnails should have left the state three screens down")
    #expect(watch.backAtTop == 0, "thumbnails still loading in the first frame back at the top")
  }
}

/// What the frames showed, seen from the loop's thread.
private final class FrameWatch: @unchecked Sendable {
  private(set) var firstScreenReady = false
  private(set) var wentDown = false
  private(set) var droppedWhileDown = false
  /// In the first frame back at the top: how many of its tiles were still
  /// loading.
  private(set) var backAtTop: Int?
  private var firstScreen: [ImageRequest.Key] = []

  func see(_ state: AppState) {
    guard let scope = state.scope, scope.hasLoadedOnce else { return }
    let visible = scope.items.prefix(state.layout.visibleCells).compactMap { state.thumbnailKey(for: $0) }
    if !firstScreenReady {
      firstScreen = visible
      firstScreenReady = !visible.isEmpty && visible.allSatisfy { state.thumbnails[$0].map(Self.isReady) ?? false }
      return
    }
    if !wentDown {
      guard scope.focus > 0 else { return }
      wentDown = true
      droppedWhileDown = firstScreen.allSatisfy { state.thumbnails[$0] == nil }
      return
    }
    if backAtTop == nil, scope.focus == 0 {
      backAtTop = firstScreen.filter { state.thumbnails[$0] == .loading || state.thumbnails[$0] == nil }.count
    }
  }

  private static func isReady(_ thumbnail: ThumbnailState) -> Bool {
    if case .ready = thumbnail { return true }
    return false
  }
}
