import CSystemCalls
import Foundation
import PickerCore

/// How the loop ended: with an outcome of the UI, or by a signal.
package enum LoopEnd: Equatable {
  case outcome(Outcome)
  case signal(Int32)
}

/// The one event loop. It alone calls `update` and draws, on the main thread:
///
///     terminal keys ─┐
///                    ├─▶ update(state, event) ─▶ effects ─▶ EffectRunner ─┐
///     inbox events ──┘          │                                         │
///            ▲                  ▼                                         │
///            │            render(state) ─▶ terminal                       │
///            └──────────── results of background work ◀───────────────────┘
package final class EventLoop {
  package private(set) var state: AppState
  private let terminal: TerminalBackend
  private let runner: EffectRunner
  private let inbox: Inbox
  private let theme: Theme
  /// Called after each frame is drawn (benchmarks stop on the first full one).
  package var onFrame: ((AppState) -> Bool)?
  /// Where the selection is kept while the picker runs (nil: not kept).
  package var journal: JournalFile?
  /// The selection last handed to the journal.
  private var journaled = Selection()
  /// Where searches kept with Enter go (nil: not kept).
  package var searchHistory: SearchHistoryFile?
  /// The searches last handed to it.
  package var savedSearches: [String] = []

  package init(
    state: AppState, terminal: TerminalBackend, sources: [any PhotoSource], pipeline: ImagePipeline?,
    downloader: Downloader, theme: Theme
  ) {
    self.state = state
    self.terminal = terminal
    self.inbox = Inbox()
    self.runner = EffectRunner(sources: sources, inbox: inbox, pipeline: pipeline, downloader: downloader)
    self.theme = theme
  }

  /// Runs until the user confirms or cancels, or a signal arrives.
  package func run(takeSignal: () -> Int32 = { 0 }) -> LoopEnd {
    // The loop wakes for a key and sleeps again within a millisecond or two;
    // with short turns it runs as it wakes, not after a decoder's turn
    // (which on two busy cores held a key's frame 3-6 ms).
    let previousSlice = pk_sched_request_slice(500_000)
    defer {
      // An embedding program's thread gets its turns back as they were, and
      // the decoders their wakes, however the run ends.
      if previousSlice >= 0 { _ = pk_sched_request_slice(UInt64(previousSlice)) }
      runner.releaseWorkerWakes()
      // Verdicts given just before Enter or q reach their XMP.
      runner.finishCullingWrites()
    }
    var pending: [AppEvent] = [.resize(terminal.size), .start]
    while true {
      // Workers woken now would take a core from this frame.
      runner.holdWorkerWakes()
      var index = 0
      while index < pending.count {
        for effect in state.update(pending[index]) {
          runner.run(effect)
          if let outcome = runner.finished { return .outcome(outcome) }
        }
        index += 1
        // Thumbnails the pipeline has in memory come back as events applied
        // in this same frame.
        if index == pending.count { pending += runner.handOverThumbnails(state.thumbnailWishes) }
      }
      if !pending.isEmpty { runner.readings.keep(only: state.readings.pending) }
      if !pending.isEmpty {
        if state.selection != journaled {
          journaled = state.selection
          journal?.record(journaled)
        }
        if state.searchHistory != savedSearches {
          savedSearches = state.searchHistory
          searchHistory?.save(savedSearches)
        }
        terminal.draw(AppView.render(state, theme: theme))
        if let onFrame, onFrame(state) { return .outcome(.cancelled) }
      }
      runner.releaseWorkerWakes()
      let signal = takeSignal()
      if signal != 0 { return .signal(signal) }
      pending = waitForEvents()
    }
  }

  /// Blocks until the terminal or the inbox has something, then returns it.
  private func waitForEvents() -> [AppEvent] {
    var descriptors = ([inbox.wakeDescriptor] + terminal.pollDescriptors).map {
      pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
    }
    // The timeout first: it gives up on questions that went unanswered,
    // which may let pictures go at once (then the tty is waited on too).
    let timeout = terminal.inputTimeout
    // Pictures still on their way go out as the terminal reads them, in
    // this same wait, so a key is never stuck behind them.
    if let output = terminal.pendingOutputDescriptor {
      descriptors.append(pollfd(fd: output, events: Int16(POLLOUT), revents: 0))
    }
    // Signals write to one of these descriptors, so one arriving while the
    // loop was busy still ends this wait at once.
    _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
    terminal.suspendIfAsked()
    // Input first: it may carry the terminal's answers that let more go.
    let events = terminal.readInput()
    terminal.writePending()
    return events + inbox.drain()
  }
}
