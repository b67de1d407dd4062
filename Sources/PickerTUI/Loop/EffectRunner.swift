import Foundation
import PickerCore

/// Carries out every effect `update` returns: I/O off the main thread, with
/// results posted back to the inbox, and the end; and hands the state's
/// thumbnail wishes to the pipeline once a batch is done. Called from the
/// event loop's thread only.
final class EffectRunner {
  /// Set by `.finish`: the loop ends with it.
  private(set) var finished: Outcome?
  let sources: [any PhotoSource]
  let inbox: Inbox
  /// Nil when thumbnails are off.
  private let thumbnails: ThumbnailDemand?
  private let pipeline: ImagePipeline?
  private let downloader: Downloader
  /// Facts and sharpness, dropped when their photo leaves the screen first.
  let readings = ReadingQueue()
  /// Set when a mode with tasks leaves, by its id.
  private var modeTaskStops: [Int: CancellationFlag] = [:]
  /// What the UI was told of each source, to tell it when that changes.
  private let summaries: [SourceSummary]

  init(sources: [any PhotoSource], inbox: Inbox, pipeline: ImagePipeline?, downloader: Downloader) {
    self.sources = sources
    self.inbox = inbox
    self.thumbnails = pipeline.map(ThumbnailDemand.init)
    self.pipeline = pipeline
    self.downloader = downloader
    self.summaries = sources.map(SourceSummary.init)
    watchChanges()
  }

  /// What sources say unasked (an index filling in) reaches the UI as events.
  private func watchChanges() {
    for (index, source) in sources.enumerated() {
      guard let changes = source.changes() else { continue }
      let inbox = inbox
      Task.detached {
        for await change in changes { inbox.post(.sourceChanged(sourceIndex: index, change)) }
      }
    }
  }

  func run(_ effect: Effect) {
    switch effect {
    case .load(let load): self.load(load)
    case .signOut(let index): signOut(sourceIndex: index)
    case .modeTask(let id, let task): runModeTask(task, of: id)
    case .stopModeTasks(let id): modeTaskStops.removeValue(forKey: id)?.set()
    case .readFacts(let reference, let placed): readFacts(reference, placed: placed)
    case .scoreSharpness(let reference): scoreSharpness(reference)
    case .checkPicked(let check): checkPicked(check)
    case .cull(let write): cull(write)
    case .refresh(let index): sources[index].refresh()
    case .finish(let outcome): finished = outcome
    }
  }

  /// Each source's search in flight, by its scope's generation: a newer
  /// search (the next key typed) cancels it.
  private var searches: [Int: (generation: Int, task: Task<Void, Never>)] = [:]
  /// How long a remote source's search waits for typing to pause: each key
  /// would otherwise be a request to a server.
  static let remoteSearchPause: Duration = .milliseconds(150)

  private func load(_ load: PageLoad) {
    let source = sources[load.sourceIndex]
    let known = summaries[load.sourceIndex]
    let inbox = inbox
    let isSearch: Bool
    if case .search = load.scope { isSearch = true } else { isSearch = false }
    // The index and a folder's listing answer at once; the others ask a
    // server or a program.
    let pauses =
      isSearch && load.request.offset == 0 && !source.capabilities.contains(.timeline) && !(source is FolderSource)
    if isSearch, let running = searches[load.sourceIndex], running.generation != load.generation {
      running.task.cancel()
    }
    let pause = pauses ? Self.remoteSearchPause : nil
    let task = Task.detached {
      if let pause {
        try? await Task.sleep(for: pause)
        if Task.isCancelled { return }
      }
      do {
        let page: Page
        switch load.scope {
        case .root: page = try await source.items(in: nil, page: load.request)
        case .folder(let id): page = try await source.items(in: id, page: load.request)
        case .search(let query, let folder): page = try await source.search(query, in: folder, page: load.request)
        // A stack's scope is made with its photos and never asks.
        case .stack: page = Page(items: [], hasMore: false)
        }
        reportChanges(of: source, index: load.sourceIndex, known: known, to: inbox)
        inbox.post(.pageLoaded(load, page))
      } catch {
        // A search replaced by a newer one: its scope is gone.
        if Task.isCancelled { return }
        reportChanges(of: source, index: load.sourceIndex, known: known, to: inbox)
        if let prompt = (error as? SourceError)?.signIn {
          inbox.post(.pageNeedsSignIn(load, String(describing: error), prompt))
        } else {
          inbox.post(.pageFailed(load, String(describing: error)))
        }
      }
    }
    if isSearch { searches[load.sourceIndex] = (load.generation, task) }
  }

  private func signOut(sourceIndex index: Int) {
    let source = sources[index]
    let inbox = inbox
    Task.detached {
      await source.signOut()
      inbox.post(.signedOut(sourceIndex: index))
    }
  }

  /// A mode's task, on a thread of its own (transfers block); what it
  /// reports goes back to the mode by its id.
  private func runModeTask(_ task: ModeTask, of modeID: Int) {
    let stop = modeTaskStops[modeID] ?? CancellationFlag()
    modeTaskStops[modeID] = stop
    let inbox = inbox
    let context = ModeTaskContext(
      sources: sources, downloader: downloader,
      report: { inbox.post(.modeMessage(modeID: modeID, $0)) }, isStopped: { stop.isSet })
    Thread.detachNewThread { task.run(context) }
  }

  /// A local photo's facts, read off the main thread.
  private func readFacts(_ reference: ImageReference, placed: TakenDate?) {
    let inbox = inbox
    guard case .file(let path) = reference else { return }
    readings.enqueue(reference) {
      inbox.post(.factsLoaded(reference, FactsReader.read(path, name: "", placed: placed)))
    }
  }

  /// A local photo's sharpness, from a decode of 256 pixels a side (the
  /// stacks' score), off the main thread.
  private func scoreSharpness(_ reference: ImageReference) {
    let inbox = inbox
    guard case .file(let path) = reference else { return }
    readings.enqueue(reference) {
      inbox.post(.sharpnessScored(reference, PhotoSignature.read(file: path)?.sharpness))
    }
  }

  /// The last verdict being kept and written: the next waits for it, so
  /// two quick keys on one photo end with the second on disk.
  private var lastCull: Task<Void, Never>?

  /// Every source keeps the verdict (the index at once), then its XMP is
  /// written; a problem comes back for the user.
  private func cull(_ write: CullingWrite) {
    let (inbox, sources, previous) = (inbox, sources, lastCull)
    lastCull = Task.detached {
      await previous?.value
      for source in sources { await source.remember(write.culling, of: write.path) }
      let outcome = XMPWriter.write(write.change, verdict: write.culling, for: write.path, options: write.options)
      inbox.post(.cullingWritten(write, problem: outcome.problem))
    }
  }

  /// Waits for the verdicts still being written (a few milliseconds each;
  /// at most `seconds`, as a stuck network folder must not hold the exit).
  func finishCullingWrites(seconds: Double = 5) {
    guard let last = lastCull else { return }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await last.value
      done.signal()
    }
    _ = done.wait(timeout: .now() + seconds)
  }

  /// Which picked files are gone, off the main thread (a stat on a stale
  /// network mount can take long).
  private func checkPicked(_ check: PickCheck) {
    let inbox = inbox
    DispatchQueue.global(qos: .userInitiated).async {
      // Gone, or no longer a regular file (a FIFO in its place would hang
      // the command reading the printed path).
      let missing = check.localPaths.filter { !DirectoryReader.isRegularFile($0) }
      // Those still there are named for what they are, not as gone.
      let notFiles = missing.filter { DirectoryReader.fileKind($0) != nil }
      inbox.post(.pickedChecked(check, missing: Set(missing), notFiles: Set(notFiles)))
    }
  }

  /// While the loop works out a frame, thumbnails asked for wake no idle
  /// worker (`ImagePipeline.holdWorkerWakes`); once it is drawn they do.
  func holdWorkerWakes() { pipeline?.holdWorkerWakes() }
  func releaseWorkerWakes() { pipeline?.releaseWorkerWakes() }

  /// Hands the state's thumbnail wishes to the pipeline after a batch.
  /// Thumbnails already in memory come back at once, as events to apply
  /// before the next frame is drawn.
  func handOverThumbnails(_ requests: @autoclosure () -> [ImageRequest]) -> [AppEvent] {
    guard let thumbnails else { return [] }
    let inbox = inbox
    let ready = thumbnails.want(
      requests(), deliver: { key, result in inbox.post(.thumbnailLoaded(key, result)) },
      progress: { key, received, expected in
        inbox.post(.thumbnailProgress(key, received: received, expected: expected))
      })
    return ready.map { .thumbnailLoaded($0.0, .success($0.1)) }
  }
}

/// A command source tells what it can do once it runs (search, sign-in).
private func reportChanges(of source: any PhotoSource, index: Int, known: SourceSummary, to inbox: Inbox) {
  let now = SourceSummary(source)
  if now != known { inbox.post(.sourceUpdated(sourceIndex: index, now)) }
}
