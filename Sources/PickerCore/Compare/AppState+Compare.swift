/// Compare (`c`): the picked photos side by side, up to four at a time.
/// Tab moves the active pane, Space picks or unpicks its photo, x drops it
/// (the next takes its place), Enter confirms as in the grid; the loupe's
/// zoom and pan apply to every pane at once (the same point at the same
/// scale), reckoned on the active photo.
extension AppState {
  public var compareState: CompareState? {
    if case .compare(let state) = mode { return state }
    return nil
  }

  mutating func openCompare() {
    // The picks, when there are two or more; else, on a stack, its photos,
    // sharpest first.
    if selection.count < 2, let stack = focusedItem?.stack, compare(stack: stack) { return }
    guard selection.count >= 2 else {
      notice = Notice("Pick two to four photos (Space), then c shows them side by side (or c on a stack)")
      return
    }
    loupe = nil
    enter(.compare(CompareState(photos: selection.photos)))
  }

  /// Where the shown photos' panes are: the screen less the status line.
  public func comparePanes(_ state: CompareState) -> [CompareLayout.Pane] {
    CompareLayout.panes(count: state.shown.count, width: size.width, height: max(1, size.height - 1))
  }

  /// A pane's picture, zoomed as the loupe says (nil: fitted).
  public func compareKey(for photo: ComparedPhoto, in pane: CompareLayout.Pane, zoomed: Bool = true)
    -> ImageRequest.Key?
  {
    guard options.showsThumbnails else { return nil }
    return ImageRequest.Key(
      reference: photo.reference, columns: pane.width, rows: pane.pictureHeight, style: thumbnailStyle,
      loupe: zoomed ? loupe : nil)
  }

  /// Each pane's picture; zoomed, each at fit too (shown until the view is
  /// made).
  func wantedCompareImages() -> [ImageRequest] {
    guard let state = compareState else { return [] }
    var requests: [ImageRequest] = []
    for (photo, pane) in zip(state.shown, comparePanes(state)) {
      if let key = compareKey(for: photo, in: pane) {
        requests.append(ImageRequest(key: key, priority: Self.visiblePriority - requests.count))
      }
      if loupe != nil, let fit = compareKey(for: photo, in: pane, zoomed: false) {
        requests.append(ImageRequest(key: fit, priority: Self.visiblePriority - requests.count))
      }
    }
    return requests
  }

  /// A compared photo's size upright, once its facts are read.
  func comparedSize(_ photo: ComparedPhoto) -> PixelSize? {
    guard let read = facts[photo.reference], let size = read.pixelSize else { return nil }
    return (read.orientation ?? 1) >= 5 ? PixelSize(width: size.height, height: size.width) : size
  }

  mutating func handleCompare(_ key: Key, state: CompareState) -> [Effect] {
    guard let action = options.keys.compare.action(for: key) else { return [] }
    var state = state
    let shown = state.shown.count
    switch action {
    case .nextPane: state.active = (state.active + 1) % max(1, shown)
    case .previousPane: state.active = (state.active + max(1, shown) - 1) % max(1, shown)
    case .toggle: togglePick(state.activePhoto)
    case .drop:
      state.photos.remove(at: state.first + state.active)
      if state.photos.isEmpty {
        leaveMode()
        loupe = nil
        return []
      }
      if state.first >= state.photos.count { state.first = max(0, state.first - CompareState.panesAtOnce) }
      state.active = min(state.active, state.shown.count - 1)
    case .activate:
      // Nothing picked (all unpicked here): the active photo is the pick.
      if selection.isEmpty, let photo = state.activePhoto {
        selection.insert(photo)
      }
      return confirm(focused: nil)
    case .nextPage:
      if state.first + CompareState.panesAtOnce < state.photos.count {
        state.first += CompareState.panesAtOnce
        state.active = 0
      }
    case .previousPage:
      state.first = max(0, state.first - CompareState.panesAtOnce)
      state.active = 0
    case .zoomIn, .zoomOut, .actualSize, .fit:
      compareZoom(action, state: state)
    case .panLeft: comparePan(dx: -1.0 / 3, dy: 0, state: state)
    case .panRight: comparePan(dx: 1.0 / 3, dy: 0, state: state)
    case .panUp: comparePan(dx: 0, dy: -1.0 / 3, state: state)
    case .panDown: comparePan(dx: 0, dy: 1.0 / 3, state: state)
    case .back:
      leaveMode()
      loupe = nil
      return []
    case .cancel: return [.finish(.cancelled)]
    }
    mode = .compare(state)
    return []
  }

  /// The active pane's photo and its box in screen pixels.
  private func activeView(_ state: CompareState) -> (size: PixelSize, box: PixelSize)? {
    let panes = comparePanes(state)
    guard let photo = state.activePhoto, panes.indices.contains(state.active),
      let size = comparedSize(photo), let key = compareKey(for: photo, in: panes[state.active])
    else { return nil }
    return (size, key.screenPixelBox)
  }

  private mutating func compareZoom(_ action: CompareAction, state: CompareState) {
    guard let (size, box) = activeView(state) else {
      notice = Notice("Zoom waits for the photos' sizes (reading…)")
      return
    }
    let step: ZoomStep =
      switch action {
      case .zoomIn: .in
      case .zoomOut: .out
      case .actualSize: .actualSize
      default: .fit
      }
    zoom(step, photo: size, fitBox: box, box: box)
  }

  private mutating func comparePan(dx: Double, dy: Double, state: CompareState) {
    guard let current = loupe, let (size, box) = activeView(state) else { return }
    loupe = current.panned(dx: dx, dy: dy, image: size, box: box)
  }

  /// Space on a compared photo: picked, or unpicked (within --max).
  private mutating func togglePick(_ photo: ComparedPhoto?) {
    guard let photo else { return }
    if selection.contains(photo.key) {
      selection.remove(photo.key)
      return
    }
    if let refusal = options.limits.refusalToAdd(count: selection.count) {
      notice = Notice(refusal, isError: true)
      return
    }
    selection.insert(photo)
  }

  /// The facts and sharpness of the compared photos on screen, each read
  /// once.
  mutating func askForCompareFacts() -> [Effect] {
    guard let state = compareState else { return [] }
    var effects: [Effect] = []
    for photo in state.shown {
      guard case .file = photo.reference else { continue }
      if facts[photo.reference] == nil {
        facts[photo.reference] = PhotoFacts(name: Sanitizer.sanitize(photo.title), isLoading: true)
        effects.append(.readFacts(photo.reference))
      }
      if sharpness[photo.reference] == nil {
        sharpness[photo.reference] = .some(nil)
        effects.append(.scoreSharpness(photo.reference))
      }
    }
    return effects
  }

  /// A click makes its pane active; the wheel zooms every pane.
  mutating func handleCompareMouse(_ mouse: MouseEvent, state: CompareState) -> [Effect] {
    switch mouse.kind {
    case .wheelUp: compareZoom(.zoomIn, state: state)
    case .wheelDown: compareZoom(.zoomOut, state: state)
    case .click, .doubleClick:
      if let index = comparePanes(state).firstIndex(where: {
        (($0.x)..<($0.x + $0.width)).contains(mouse.x) && (($0.y)..<($0.y + $0.height)).contains(mouse.y)
      }) {
        var state = state
        state.active = index
        mode = .compare(state)
      }
    case .drag: break
    }
    return []
  }
}

extension AppState {
  /// Each shown photo's sharpness as 0-100 of the sharpest shown, once all
  /// are scored; nil before, or for a photo that could not be.
  public func compareScores(_ state: CompareState) -> [Int?] {
    let raw = state.shown.map { photo -> Double? in sharpness[photo.reference] ?? nil }
    let known = raw.compactMap { $0 }
    guard let top = known.max(), top > 0, known.count == raw.count else { return raw.map { _ in nil } }
    return raw.map { $0.map { Int(($0 / top * 100).rounded()) } }
  }
}
