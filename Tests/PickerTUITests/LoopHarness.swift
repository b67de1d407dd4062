import Foundation
import PickerTUI
import Testing

/// What the loop tests share: a loop over a list of real files on a
/// recording terminal, run on a thread of its own as a program's main
/// thread would run it.
/// Runs a loop on a thread of its own, as a program's main thread would: a
/// loop blocking one of Swift concurrency's few pool threads would starve
/// the tasks that load its pages.
func onOwnThread(_ body: @escaping () -> LoopEnd) async -> LoopEnd {
  let work = Unchecked(body)
  return await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: work.value()) }
  }
}

/// The loop and its terminal belong to the thread that runs them; the test
/// only reads them once that thread is done.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// A screen predicate for `waitFor`.
func showing(_ text: String) -> (Screen) -> Bool {
  { $0.plainText.contains(text) }
}

/// A loop over one in-memory source of real files in a temporary folder.
final class LoopRun {
  let folder: String
  let terminal: RecordingTerminal
  let loop: EventLoop
  private var script: [RecordingTerminal.Step] = []

  init(photos: [String], failure: String? = nil) async throws {
    folder = NSTemporaryDirectory() + "loop-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in photos {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8))
    }
    let source = ListSource(folder: folder, names: photos, failure: failure)
    terminal = RecordingTerminal(size: loopSize, script: [])
    loop = EventLoop(
      state: AppState(sources: [SourceSummary(source)], options: AppOptions(showsThumbnails: false), size: loopSize),
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

let loopSize = TerminalSize(width: 100, height: 30)

/// Lists names in a folder, in the order given; or fails with a message.
final class ListSource: PhotoSource, @unchecked Sendable {
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
