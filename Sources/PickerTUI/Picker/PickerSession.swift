import Foundation

/// One run of the picker on an open terminal: the state it starts from, the
/// pipeline and the loop, and the tidy-up after (terminal, workers, command
/// sources, rclone, the journal) in that order. Any terminal backend will
/// do: the ncurses one, or a recording one typing bytes in unit tests.
package final class PickerSession {
  private let sources: [any PhotoSource]
  private let options: PickerOptions
  private let terminal: any TerminalBackend
  private let traits: TerminalTraits
  private var finalState: AppState?

  package init(sources: [any PhotoSource], options: PickerOptions, terminal: any TerminalBackend) {
    self.sources = sources
    self.options = options
    self.terminal = terminal
    self.traits = terminal.traits
  }

  /// Runs the loop, then restores the terminal and stops the background work.
  package func run() -> LoopEnd {
    let remoteSources = sources.compactMap { $0 as? any RemoteImageSource }
    let pipeline =
      options.thumbnails != .off
      ? PickerPipeline.make(environment: options.environment, remote: remoteSources) : nil
    let loop = EventLoop(
      state: initialState(), terminal: terminal, sources: sources, pipeline: pipeline,
      downloader: Downloader(folder: downloadFolder, sources: remoteSources),
      theme: traits.depth == .none ? Theme.monochrome : Theme.colored)
    loop.journal = options.journal
    loop.searchHistory = options.searchHistory
    loop.savedSearches = loop.state.searchHistory
    let end = loop.run(takeSignal: { self.terminal.takeSignal() })
    finalState = loop.state
    terminal.close()
    // A worker cut off mid-write would leave a temporary file in the cache.
    pipeline?.shutdown()
    SourceShutdown.stop(sources)
    // Kept until the host has used the picks (it removes it then).
    options.journal?.flush()
    options.searchHistory?.flush()
    return end
  }

  /// What the host gets: the picked items with their sources, ids and
  /// titles next to the paths the loop ended with.
  package func result(of end: LoopEnd) -> PickResult {
    switch end {
    case .signal(let signal): return .interrupted(signal: signal)
    case .outcome(.cancelled): return .cancelled
    case .outcome(.nothingToPick): return .nothingToPick
    case .outcome(.picked(let lines)):
      guard let confirmed = finalState?.confirmFlow.confirmed, confirmed.outputs.count == lines.count else {
        // Not reached: every pick ends through a confirm.
        return .picked(lines.map { PickedItem(sourceID: "", itemID: "", titleBytes: [], path: $0, url: nil) })
      }
      let details = finalState.map(Self.details) ?? [:]
      return .picked(
        zip(confirmed.pickedKeys.indices, lines).map { index, line in
          let key = confirmed.pickedKeys[index]
          var item = PickedItem(
            sourceID: key.sourceID, itemID: key.itemID, titleBytes: confirmed.titles[index], path: line, url: nil)
          item.details = details[key] ?? finalState.flatMap { Self.details(of: key, shownIn: $0) }
          if case .remote(_, let url) = confirmed.outputs[index] {
            item.url = url
            if case .urlsOnly = options.remotePicks { item.path = nil }
          }
          return item
        })
    }
  }

  /// What each pick's listing said, by its key.
  private static func details(_ state: AppState) -> [SelectionKey: PickedDetails] {
    var found: [SelectionKey: PickedDetails] = [:]
    for photo in state.selection.photos {
      // The verdict as it is now: it may have been given after the pick.
      var details = photo.details
      details?.culling = state.culling(of: photo)
      found[photo.key] = details
    }
    return found
  }

  /// The photo confirmed alone (Enter with nothing picked) is on screen.
  private static func details(of key: SelectionKey, shownIn state: AppState) -> PickedDetails? {
    guard let index = state.sources.firstIndex(where: { $0.id == key.sourceID }),
      let item = state.grid.scopeStacks[index].last?.items.lazy.flatMap(\.photos).first(where: { $0.id == key.itemID })
    else { return nil }
    return PickedDetails(item, source: state.sources[index].title)
  }

  private var downloadFolder: String {
    if case .download(let folder?) = options.remotePicks { return folder }
    return PrivateFiles.cacheFolder(environment: options.environment) + "/picked"
  }

  private func initialState() -> AppState {
    var appOptions = AppOptions(
      limits: SelectionLimits(maximum: options.maximum, minimum: options.minimum), pageSize: options.pageSize,
      // Paths go back to a host as values: only lines need refusing.
      print0: !options.printsLines, showsThumbnails: options.thumbnails != .off)
    appOptions.printsURLs = options.remotePicks == .urlsOnly
    appOptions.colorDepth = traits.depth
    appOptions.asciiIcons = !traits.localeIsUTF8
    appOptions.sourceIcons = options.sourceIcons
    appOptions.keys = options.keys
    appOptions.stacksPhotos = options.stacksPhotos
    appOptions.stackingRule = options.stackingRule
    appOptions.xmp = options.xmp
    appOptions.choosesFolders = options.choosesFolders
    appOptions.today = PhotoMetadataReader.latestBelievableDay() - 1
    if let graphics = traits.graphics.graphics {
      appOptions.pixelFormat = PixelFormat(
        graphics: graphics, cellSize: traits.graphics.cellSize, colorRegisters: traits.graphics.colorRegisters,
        maxSize: graphics == .sixel ? traits.graphics.sixelMaxSize : nil)
      appOptions.pixelFormat?.kittyFiles = traits.graphics.kittyFileFolder != nil
    }
    var state = AppState(
      sources: sources.map(SourceSummary.init), activeSource: startingSource, options: appOptions,
      size: terminal.size)
    state.grid.keepsStartingSource = options.keepsStartingSource
    state.searchHistory = options.searchHistory?.load() ?? []
    if let notice = traits.graphics.notice { state.notice = Notice(notice, isHint: true) }
    if options.choosesFolders {
      state.notice = Notice("Choose a folder: Enter chooses the focused one (on a photo, its folder), Space opens it")
    }
    if let journal = options.journal {
      journal.run = JournalFile.run(of: state.sources)
      offerResume(from: journal, to: &state)
    }
    return state
  }

  /// The given source, else the Picked list when there is one, else the first.
  private var startingSource: Int {
    options.startingSource ?? sources.firstIndex { $0 is GivenPathsSource } ?? 0
  }

  /// The journal of an earlier run that did not finish: restored now when
  /// asked, else offered in the footer when its picks belong here.
  private func offerResume(from journal: JournalFile, to state: inout AppState) {
    guard let saved = journal.load() else {
      if options.resumesJournal { state.notice = Notice("Nothing to restore: no earlier run left picks") }
      return
    }
    let offer = ResumeOffer(
      journal: saved, openSources: Set(sources.map(\.id)), exists: { DirectoryReader.fileKind($0) == .file })
    if options.resumesJournal {
      state.confirmFlow.resumeOffer = offer
      state.restorePicks()
    } else {
      state.offerResume(offer)
    }
  }
}
