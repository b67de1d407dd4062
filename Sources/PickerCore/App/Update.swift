extension AppState {
  /// Applies one event and returns the work it asks for. Pure: no I/O, no
  /// clock; the event loop runs the effects and feeds their results back.
  public mutating func update(_ event: AppEvent) -> [Effect] {
    let modesWithTasks = modesWithTasks
    var effects: [Effect]
    switch event {
    case .start:
      effects = start()
    case .key(let key):
      notice = nil
      grid.hasInteracted = true
      if isTooSmall && !actsWhileTooSmall(key) {
        effects = []
      } else if waitsForPage(before: key) {
        if grid.typedAhead.isEmpty { grid.typedAheadScope = scope?.generation }
        grid.typedAhead.append(key)
        effects = []
      } else {
        effects = handle(key)
      }
    case .mouse(let mouse):
      grid.hasInteracted = true
      effects = isTooSmall ? [] : handle(mouse)
    case .resize(let newSize):
      size = newSize
      effects = []
    case .pageLoaded(let load, let page) where load.sweep != nil:
      culling.noteListed(page.items)
      receiveSweep(page, for: load)
      effects = []
    case .pageLoaded(let load, let page):
      culling.noteListed(page.items)
      effects = receive(page, for: load)
    case .pageFailed(let load, let message) where load.sweep != nil:
      notice = Notice("Nothing selected: the listing could not be read (\(message))", isError: true)
      effects = []
    case .pageFailed(let load, let message):
      effects = receiveFailure(message, for: load)
    case .pageNeedsSignIn(let load, let message, let prompt):
      effects = receiveSignInNeeded(message, prompt: prompt, for: load)
    case .signedOut(let index):
      effects = receiveSignedOut(sourceIndex: index)
    case .sourceUpdated(let index, let summary):
      if sources.indices.contains(index) { sources[index].takeDescription(summary) }
      effects = []
    case .modeMessage(let id, let message):
      effects = deliver(message, toMode: id)
    case .thumbnailLoaded(let key, let result):
      receiveThumbnail(result, for: key)
      effects = []
    case .thumbnailProgress(let key, let received, let expected):
      if thumbnails[key] == .loading { fetchProgress[key] = FetchProgress(received: received, expected: expected) }
      effects = []
    case .sourceChanged(let index, let change):
      effects = receive(change, from: index)
    case .pickedChecked(let check, let missing, let notFiles):
      effects = receiveCheck(check, missing: missing, notFiles: notFiles)
    case .factsLoaded(let reference, let read):
      readings.receiveFacts(read, for: reference)
      effects = []
    case .sharpnessScored(let reference, let score):
      readings.receiveSharpness(score, for: reference)
      effects = []
    case .cullingWritten(let write, let problem):
      effects = receiveCullingWritten(write, problem: problem)
    }
    effects += deriveGrid(after: event)
    // What the mode on top needs read for what it shows.
    effects += afterEventOfTopMode()
    effects += stopTasks(ofModesGoneFrom: modesWithTasks)
    return effects
  }

  /// What follows from the grid's state once an event is applied: the
  /// scope's note, moves and keys that waited for a page, the scroll kept on
  /// the focus with the next page asked for, the thumbnails wanted. A
  /// picture's arrival or progress changes nothing these read (the scope,
  /// the focus, the size, the modes, the facts), so it skips them: a page
  /// of thumbnails from memory comes as one event each, in one frame.
  private mutating func deriveGrid(after event: AppEvent) -> [Effect] {
    switch event {
    case .thumbnailLoaded, .thumbnailProgress: return []
    default: break
    }
    showNote()
    applyCarriedMove()
    var effects = replayTypedAhead()
    effects += keepFocusVisibleAndPrefetch()
    keepWantedThumbnails()
    return effects
  }

  /// Only "Terminal too small" is on screen.
  var isTooSmall: Bool {
    size.width < AppView.minimumSize.width || size.height < AppView.minimumSize.height
  }

  /// While nothing but "Terminal too small" is shown, keys would act on
  /// photos the user cannot see: only cancel, quit and help act.
  private func actsWhileTooSmall(_ key: Key) -> Bool {
    options.keys.tooSmall.action(for: key) != nil
  }

  /// Opens the root of every source, so the bar can tell which are empty.
  private mutating func start() -> [Effect] {
    guard !sources.isEmpty else { return [.finish(.nothingToPick)] }
    var effects: [Effect] = []
    for index in sources.indices where grid.scopeStacks[index].isEmpty {
      let root = makeScope(.root, label: sources[index].rootLabel, of: index)
      grid.scopeStacks[index] = [root]
      effects += loadNextPage(sourceIndex: index)
    }
    return effects
  }

  private mutating func handle(_ key: Key) -> [Effect] {
    guard isOnGrid else { return sendToTopMode(key) }
    if let action = options.keys.grid.action(for: key) { return perform(action) }
    // A key the grid leaves free may open a registered mode.
    guard let mode = options.keys.mode(openedBy: key), let opened = mode.openFromGrid(self) else { return [] }
    switch opened {
    case .mode(let mode): enter(mode)
    case .refused(let refusal): notice = refusal
    }
    return []
  }

  /// Runs a grid action.
  mutating func perform(_ action: GridAction) -> [Effect] {
    // Any other key stops End's walk, or a jump's, where it is.
    if action != .last {
      scope?.seeksEnd = false
      scope?.holdsEnd = false
    }
    scope?.seekItem = nil
    switch action {
    case .moveUp: moveRows(-1, clampToEnds: false)
    case .moveDown: moveRows(1, clampToEnds: false)
    case .moveLeft: moveFocus(by: -1, clampToEnds: true)
    case .moveRight: moveFocus(by: 1, clampToEnds: true)
    case .pageUp:
      gridRows.isUniform
        ? moveFocus(by: -layout.visibleCells, clampToEnds: true) : moveRows(-rowsPerPage, clampToEnds: true)
    case .pageDown:
      gridRows.isUniform
        ? moveFocus(by: layout.visibleCells, clampToEnds: true) : moveRows(rowsPerPage, clampToEnds: true)
    case .first:
      // Before a moved window: back to the listing's start.
      if scope?.hasNewer == true { return land(onItem: 0) }
      scope?.focus = 0
    case .last: return focusLastItem()
    case .toggle:
      // A folder chooser opens folders with Space: Enter chooses.
      if options.choosesFolders, let item = focusedItem, item.isFolder { return open(folder: item) }
      toggleFocused()
    case .selectDay, .mark, .selectRange, .selectAll, .invertSelection: return selectMany(action)
    case .activate: return activateFocused()
    case .parent: return goToParent()
    case .nextSource: return switchSource(to: (grid.activeSource + 1) % max(1, sources.count))
    case .previousSource: return switchSource(to: (grid.activeSource + sources.count - 1) % max(1, sources.count))
    case .source(let index):
      if sources.indices.contains(index) { return switchSource(to: index) }
    case .search: openSearchPrompt()
    case .focusTray: openTray()
    case .bigger: grid.sizeLevel = min(grid.sizeLevel + 1, GridLayout.thumbnailSizes.count - 1)
    case .smaller: grid.sizeLevel = max(grid.sizeLevel - 1, 0)
    case .cycleSort: return cycleSort()
    case .signOut: return signOut()
    case .help: openHelp()
    case .cancel: return [.finish(.cancelled)]
    case .quit: return quitAsking()
    case .back: return goBack()
    case .preview: return openPreview()
    case .compare: openCompare()
    case .toggleStacks: toggleStacks()
    case .restorePicks: restorePicks()
    case .nextMonth, .previousMonth, .nextDay, .previousDay: return jump(action)
    case .goToDate: openGoToDate()
    case .places: return openPlaces()
    case .cull(let command): return cull(command, .focused)
    case .hideRejected: return toggleHidingRejected()
    }
    return []
  }

  private mutating func handle(_ mouse: MouseEvent) -> [Effect] {
    guard isOnGrid else { return sendToTopMode(mouse) }
    guard let scope else { return [] }
    switch mouse.kind {
    case .wheelUp:
      moveRows(-1, clampToEnds: false)
    case .wheelDown:
      moveRows(1, clampToEnds: false)
    case .drag:
      // Dragging along the scale scrubs through the months.
      if let item = scaleItem(at: mouse, in: scope), item != scope.seekItem { return land(onItem: item) }
    case .click, .doubleClick:
      if mouse.y == 0, let index = SourceBarView.source(at: mouse.x, in: self) {
        return switchSource(to: index)
      }
      if let item = scaleItem(at: mouse, in: scope) {
        self.scope?.seekItem = nil
        return land(onItem: item)
      }
      guard let index = cell(atX: mouse.x, y: mouse.y, in: scope), index < scope.cellCount else { return [] }
      self.scope?.focus = index
      if mouse.kind == .doubleClick { return activateFocused() }
    }
    return []
  }
}

extension AppState {
  /// The first photo of the month of the timeline scale's line under the
  /// pointer, when it is on the scale.
  func scaleItem(at mouse: MouseEvent, in scope: Scope) -> Int? {
    guard TimelineScaleView.isShown(for: scope, size: size), mouse.x >= size.width - TimelineScaleView.width,
      let days = scope.days
    else { return nil }
    return TimelineScaleView.item(atLine: mouse.y - layout.gridTop, days: days, height: layout.gridHeight)
  }

  /// The cell under a screen point, if it is on a tile.
  func cell(atX x: Int, y: Int, in scope: Scope) -> Int? {
    let rowsShown = gridRows
    if rowsShown.isUniform {
      guard let (row, column) = layout.hit(x: x, y: y, scrollRow: scope.scrollRow) else { return nil }
      return row * layout.columns + column
    }
    var top = layout.gridTop + rowsShown.stickyLines(atRow: scope.scrollRow)
    var row = scope.scrollRow
    while row < rowsShown.count, top < layout.gridTop + layout.gridHeight {
      let height = rowsShown.height(ofRow: row, layout: layout)
      if y < top + height {
        let cells = rowsShown.cells(inRow: row)
        let column = x / (layout.tileWidth + 1)
        guard !cells.isEmpty, x >= 0, x % (layout.tileWidth + 1) < layout.tileWidth,
          column < cells.count
        else { return nil }
        return cells.lowerBound + column
      }
      top += height
      row += 1
    }
    return nil
  }
}
