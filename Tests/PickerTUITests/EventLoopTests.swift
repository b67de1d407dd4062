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
