/// The stack of modes over the grid: opening one, leaving it, and handing
/// it the events. Only the mode on top sees keys and clicks; below it they
/// wait, unchanged, until the user comes back to them.
extension AppState {
  /// No mode is open: the grid has the keys.
  public var isOnGrid: Bool { modes.isEmpty }

  /// The mode on top, which gets the keys.
  public var topMode: (any ModeModel)? { modes.top?.base }

  /// The mode on top when it is of this type.
  public func top<Mode: ModeModel>(_ type: Mode.Type) -> Mode? { modes.top?.base as? Mode }

  /// Opens `mode` over the one on screen; going back returns to it.
  mutating func enter(_ mode: some ModeModel) {
    // A mode may move the focus (the preview steps through photos): End's
    // hold on the last photo ends here, like at any other key.
    scope?.holdsEnd = false
    modes.push(mode)
  }

  /// Back one mode: to the one below, the grid at last.
  mutating func leaveMode() {
    modes.pop()
  }

  /// Back to the grid (another source shown, a download done).
  mutating func leaveAllModes() {
    modes.removeAll()
  }

  /// A key for the mode on top.
  mutating func sendToTopMode(_ key: Key) -> [Effect] {
    guard let entry = modes.top else { return [] }
    var mode = entry.base
    let step = mode.handle(key, app: self)
    return settle(entry, as: mode, after: step)
  }

  /// A click, a drag or the wheel for the mode on top.
  mutating func sendToTopMode(_ mouse: MouseEvent) -> [Effect] {
    guard let entry = modes.top else { return [] }
    var mode = entry.base
    let step = mode.update(mouse: mouse, app: self)
    return settle(entry, as: mode, after: step)
  }

  /// After every event: the mode on top asks for what it shows.
  mutating func afterEventOfTopMode() -> [Effect] {
    guard let entry = modes.top else { return [] }
    var mode = entry.base
    let step = mode.afterEvent(app: self)
    return settle(entry, as: mode, after: step)
  }

  /// A report of a mode's task, to that mode wherever it is on the stack;
  /// dropped when it has left.
  mutating func deliver(_ message: AnyHashableSendable, toMode id: Int) -> [Effect] {
    guard let entry = modes.entry(id: id) else { return [] }
    var mode = entry.base
    let step = mode.receiveAny(message, app: self)
    return settle(entry, as: mode, after: step)
  }

  /// The modes on the stack that run tasks: those gone after an event are
  /// told to stop (`stopTasks(ofModesGoneFrom:)`).
  var modesWithTasks: [Int] { modes.entries.filter { type(of: $0.base).runsTasks }.map(\.id) }

  func stopTasks(ofModesGoneFrom before: [Int]) -> [Effect] {
    let now = Set(modes.entries.map(\.id))
    return before.filter { !now.contains($0) }.map { .stopModeTasks(modeID: $0) }
  }

  /// Puts the updated mode back where it was, or takes it off when it is
  /// done, then carries out what it asked for, in order.
  private mutating func settle(_ entry: AnyMode, as mode: any ModeModel, after step: ModeStep) -> [Effect] {
    modes.settle(id: entry.id, as: mode, leaves: step.leaves)
    return step.intents.flatMap { carryOut($0, of: entry.id) }
  }

  /// One intent of a mode's, carried out on the app.
  private mutating func carryOut(_ intent: ModeIntent, of modeID: Int) -> [Effect] {
    switch intent {
    case .confirm: return confirm(focused: nil)
    case .cancel: return [.finish(.cancelled)]
    case .quit: return quitAsking()
    case .pick(let photo): selection.insert(photo)
    case .unpick(let key): selection.remove(key)
    case .togglePick(let photo): togglePick(photo)
    case .open(let mode): enter(mode)
    case .notice(let said): notice = said
    case .grid(.step(let delta)): return step(by: delta)
    case .grid(.toggleFocused): toggleFocused()
    case .grid(.activateFocused): return activateFocused()
    case .grid(.filter(let query)): return search(query)
    case .grid(.keepSearch(let query)): return keepSearch(query)
    case .grid(.restoreResults(let results)): return restoreResults(results)
    case .grid(.goToDate(let query)): return goToDate(query, today: options.today)
    case .readFacts(let reference, let name, let listed, let placed):
      guard readings.facts[reference] == nil else { return [] }
      if let listed {
        readings.facts[reference] = listed
        return []
      }
      readings.facts[reference] = PhotoFacts(name: name, isLoading: true)
      return [.readFacts(reference, placed: placed)]
    case .scoreSharpness(let reference):
      guard readings.sharpness[reference] == nil else { return [] }
      readings.sharpness[reference] = .some(nil)
      return [.scoreSharpness(reference)]
    case .keepReadings(let references): readings.keep(only: references)
    case .run(let task): return [.modeTask(modeID: modeID, task)]
    case .finish(let outcome): return [.finish(outcome)]
    case .signedIn(let sourceIndex): return signedIn(sourceIndex: sourceIndex)
    case .needsSignIn(let sourceID, let prompt, let error): askSignIn(sourceID: sourceID, prompt: prompt, error: error)
    case .cull(let command, let target): return cull(command, target)
    }
    return []
  }
}
