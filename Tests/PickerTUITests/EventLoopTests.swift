import Foundation
import PickerTUI
import Testing

/// The real event loop on a recording terminal: keys in batches, effects run
/// by the real runner, results back through the inbox.
@Suite struct EventLoopTests {
  @Test func escapeCancels() async throws {
    let run = try await LoopRun(photos: ["a.jpg", "b.jpg"])
    let end = await run.start([.waitFor("photos listed", showing("a.jpg")), .input([.key(.escape)])])
    #expect(end == .outcome(.cancelled))
    #expect(run.terminal.timedOut.isEmpty)
  }

  @Test func enterPrintsThePicksInTheOrderPicked() async throws {
    let run = try await LoopRun(photos: ["a.jpg", "b.jpg", "c.jpg"])
    // Picked c then a; Enter checks the files (off the loop's thread) and
    // finishes when the check comes back.
    let keys: [Key] = [.right, .right, .char(" "), .left, .left, .char(" "), .enter]
    let end = await run.start([.waitFor("photos listed", showing("c.jpg")), .input(keys.map { .key($0) })])
    #expect(end == .outcome(.picked([run.path("c.jpg"), run.path("a.jpg")])))
    #expect(run.terminal.timedOut.isEmpty)
  }

  @Test func aBatchOfKeysIsOneFrame() async throws {
    let run = try await LoopRun(photos: (1...12).map { "p\($0).jpg" })
    var focuses: [Int] = []
    run.loop.onFrame = { state in
      focuses.append(state.scope?.focus ?? -1)
      return false
    }
    let end = await run.start([
      .waitFor("photos listed", showing("p1.jpg")),
      .input([.key(.right), .key(.right), .key(.right)]),
      .waitFor("the frame after the batch", { _ in true }),
      .input([.key(.escape)]),
    ])
    #expect(end == .outcome(.cancelled))
    // Focus went 0 → 3 in one frame: no frame was drawn for 1 or 2.
    #expect(focuses.contains(3))
    #expect(!focuses.contains(1) && !focuses.contains(2))
  }

  @Test func aFailingSourceShowsItsErrorAndTheLoopGoesOn() async throws {
    let run = try await LoopRun(photos: [], failure: "server down for maintenance")
    let end = await run.start([.waitFor("the error shown", showing("server down")), .input([.key(.escape)])])
    #expect(end == .outcome(.cancelled))
    #expect(run.terminal.timedOut.isEmpty)
  }

  @Test func aSignalEndsTheLoopAfterTheFrameInProgress() async throws {
    let run = try await LoopRun(photos: ["a.jpg"])
    let terminal = run.terminal
    let end = await onOwnThread { run.loop.run(takeSignal: { terminal.frames.isEmpty ? 0 : 15 }) }
    #expect(end == .signal(15))
    #expect(terminal.frames.count == 1)
  }
}

/// Runs a loop on a thread of its own, as a program's main thread would: a
/// loop blocking one of Swift concurrency's few pool threads would starve
/// the tasks that load its pages.
private func onOwnThread(_ body: @escaping () -> LoopEnd) async -> LoopEnd {
  let work = Unchecked(body)
  return await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: work.value()) }
  }
}

/// The loop and its terminal belong to the thread that runs them; the test
/// only reads them once that thread is done.
private struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// A screen predicate for `waitFor`.
private func showing(_ text: String) -> (Screen) -> Bool {
  { $0.plainText.contains(text) }
}

/// A loop over one in-memory source of real files in a temporary folder.
private final class LoopRun {
  let folder: String
  let terminal: RecordingTerminal
  let loop: EventLoop
  private var script: [RecordingTerminal.Step] = []

  init(photos: [String], failure: String? = nil) async throws {
    folder = NSTemporaryDirectory() + "loop-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in photos {
      FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8))
    }
    let source = ListSource(folder: folder, names: photos, failure: failure)
    terminal = RecordingTerminal(size: size, script: [])
    loop = EventLoop(
      state: AppState(sources: [SourceSummary(source)], options: AppOptions(showsThumbnails: false), size: size),
      terminal: terminal, sources: [source], pipeline: nil,
      downloader: Downloader(folder: folder, sources: []), theme: .monochrome)
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  func path(_ name: String) -> PathBytes { PathBytes(folder + "/" + name) }

  func start(_ steps: [RecordingTerminal.Step]) async -> LoopEnd {
    terminal.append(steps)
    return await onOwnThread { self.loop.run() }
  }
}

private let size = TerminalSize(width: 100, height: 30)

/// Lists names in a folder, in the order given; or fails with a message.
private final class ListSource: PhotoSource, @unchecked Sendable {
  let id = "list"
  let title = "List"
  private let folder: String
  private let names: [String]
  private let failure: String?

  init(folder: String, names: [String], failure: String?) {
    self.folder = folder
    self.names = names
    self.failure = failure
  }

  func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    if let failure { throw SourceError(failure) }
    let start = min(page.offset, names.count)
    let end = min(start + page.limit, names.count)
    let items = names[start..<end].map { name in
      let path = PathBytes(self.folder + "/" + name)
      return PhotoItem(id: name, kind: .photo, title: Array(name.utf8), original: .file(path), outputPath: path)
    }
    return Page(items: Array(items), hasMore: end < names.count, total: names.count)
  }
}
