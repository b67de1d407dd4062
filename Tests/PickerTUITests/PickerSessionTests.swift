import Foundation
import PickerTUI
import Testing

/// The whole picker (its session: first state, pipeline, loop, tidy-up,
/// results) on a recording terminal that types bytes as a terminal sends
/// them, like bubbletea's tests: no tty, no tmux.
@Suite struct PickerSessionTests {
  let folder: String

  init() throws {
    folder = NSTemporaryDirectory() + "session-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let tiny = PixelImage(width: 8, height: 6, rgba: [UInt8](repeating: 120, count: 8 * 6 * 4))
    let png = try #require(ImageEncoder.encode(tiny, as: .png))
    for name in ["a.png", "b.png", "c.png"] {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(png))
    }
  }

  func options() -> PickerOptions {
    var options = PickerOptions()
    options.thumbnails = .symbols
    // The thumbnail cache outside the folder shown.
    options.environment = ["XDG_CACHE_HOME": folder + "-cache", "HOME": folder + "-cache"]
    return options
  }

  func run(_ sources: [any PhotoSource], _ script: [RecordingTerminal.Step]) async -> (PickResult, RecordingTerminal) {
    let terminal = RecordingTerminal(size: TerminalSize(width: 100, height: 30), script: script)
    let session = PickerSession(sources: sources, options: options(), terminal: terminal)
    let end = await onOwnThread { session.run() }
    return (session.result(of: end), terminal)
  }

  @Test func rightRightSpaceEnterTypedAsBytesPrintsTheThirdPhoto() async throws {
    let source = FolderSource(root: PathBytes(folder))
    let (result, terminal) = await run(
      [source], [.waitFor("photos listed", showing("c.png")), .bytes(Array("\u{1B}[C\u{1B}[C \r".utf8))])
    #expect(terminal.timedOut.isEmpty)
    guard case .picked(let items) = result else {
      Issue.record("not picked: \(result)")
      return
    }
    #expect(items.map(\.path) == [PathBytes(folder + "/c.png")])
    #expect(items.map(\.sourceID) == [source.id] && items.map(\.itemID) == ["c.png"])
    #expect(items.map(\.titleBytes) == [Array("c.png".utf8)])
  }

  @Test func aLoneEscapeCancelsOnceItsDelayHasPassed() async throws {
    let (result, terminal) = await run(
      [FolderSource(root: PathBytes(folder))], [.waitFor("photos listed", showing("a.png")), .bytes([0x1B])])
    #expect(terminal.timedOut.isEmpty)
    #expect(result == .cancelled)
  }

  @Test func aListGivenOnTheCommandLineIsTheSourceShownFirst() async throws {
    let given = GivenPathsSource(paths: [PathBytes(folder + "/b.png")])
    let (result, terminal) = await run(
      [FolderSource(root: PathBytes(folder)), given],
      [.waitFor("the given list", showing("b.png")), .bytes(Array(" \r".utf8))])
    #expect(terminal.timedOut.isEmpty)
    guard case .picked(let items) = result else {
      Issue.record("not picked: \(result)")
      return
    }
    #expect(items.map(\.sourceID) == [given.id] && items.map(\.path) == [PathBytes(folder + "/b.png")])
    // The first frame already showed the given list, not the folder.
    #expect(terminal.frames.first { $0.plainText.contains(".png") }?.plainText.contains("a.png") == false)
  }
}
