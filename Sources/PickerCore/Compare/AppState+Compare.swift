/// What compare (`CompareMode`) asks of the app: opening it, the panes'
/// pictures and facts, and the zoom shared by every pane.
extension AppState {
  public var compareState: CompareState? { top(CompareMode.self)?.compared }

  mutating func openCompare() {
    // The picks, when there are two or more; else, on a stack, its photos,
    // sharpest first.
    if selection.count < 2, let stack = focusedItem?.stack, compare(stack: stack) { return }
    guard selection.count >= 2 else {
      notice = Notice("Pick two to four photos (Space), then c shows them side by side (or c on a stack)")
      return
    }
    enter(CompareMode(CompareState(photos: selection.photos)))
  }

  /// Compare on a stack: its photos sharpest first, with the sharpness
  /// the index knew (nothing decoded again). False when fewer than two
  /// of them can be compared.
  mutating func compare(stack: PhotoStack) -> Bool {
    var photos: [ComparedPhoto] = []
    for member in stack.bySharpness {
      guard let output = member.pickedOutput else { continue }
      let photo = picked(member, output: output)
      if let signature = member.signature { readings.sharpness[photo.reference] = .some(signature.sharpness) }
      photos.append(photo)
    }
    guard photos.count >= 2 else { return false }
    enter(CompareMode(CompareState(photos: photos)))
    return true
  }

  /// Where the shown photos' panes are: the screen less the status line.
  public func comparePanes(_ state: CompareState) -> [CompareLayout.Pane] {
    CompareLayout.panes(count: state.shown.count, width: size.width, height: max(1, size.height - 1))
  }

  /// A pane's picture, zoomed as `loupe` says (nil: fitted).
  public func compareKey(for photo: ComparedPhoto, in pane: CompareLayout.Pane, loupe: Loupe?) -> ImageRequest.Key? {
    guard options.showsThumbnails else { return nil }
    return ImageRequest.Key(
      reference: photo.reference, columns: pane.width, rows: pane.pictureHeight, style: thumbnailStyle, loupe: loupe)
  }

  /// Each pane's picture; zoomed, each at fit too (shown until the view is
  /// made).
  func wantedCompareImages(_ state: CompareState) -> [ImageRequest] {
    var requests: [ImageRequest] = []
    for (photo, pane) in zip(state.shown, comparePanes(state)) {
      if let key = compareKey(for: photo, in: pane, loupe: state.loupe) {
        requests.append(ImageRequest(key: key, priority: Self.visiblePriority - requests.count))
      }
      if state.loupe != nil, let fit = compareKey(for: photo, in: pane, loupe: nil) {
        requests.append(ImageRequest(key: fit, priority: Self.visiblePriority - requests.count))
      }
    }
    return requests
  }

  /// A compared photo's size upright, once its facts are read.
  func comparedSize(_ photo: ComparedPhoto) -> PixelSize? {
    readings.facts[photo.reference]?.metadata.uprightSize
  }

  /// The active pane's photo and its box in screen pixels.
  func activeCompareView(_ state: CompareState) -> (size: PixelSize, box: PixelSize)? {
    let panes = comparePanes(state)
    guard let photo = state.activePhoto, panes.indices.contains(state.active),
      let size = comparedSize(photo), let key = compareKey(for: photo, in: panes[state.active], loupe: nil)
    else { return nil }
    return (size, key.screenPixelBox)
  }

  /// Space on a compared photo: picked, or unpicked (within --max).
  mutating func togglePick(_ photo: ComparedPhoto) {
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

  /// The facts and sharpness of the compared photos on screen not asked
  /// for yet.
  func compareFactsWanted(_ state: CompareState) -> [ModeIntent] {
    var intents: [ModeIntent] = []
    for photo in state.shown {
      guard case .file = photo.reference else { continue }
      if readings.facts[photo.reference] == nil {
        intents.append(.readFacts(photo.reference, name: Sanitizer.sanitize(photo.title), listed: nil))
      }
      if readings.sharpness[photo.reference] == nil { intents.append(.scoreSharpness(photo.reference)) }
    }
    return intents
  }
}

extension AppState {
  /// Each shown photo's sharpness as 0-100 of the sharpest shown, once all
  /// are scored; nil before, or for a photo that could not be.
  public func compareScores(_ state: CompareState) -> [Int?] {
    let raw = state.shown.map { photo -> Double? in readings.sharpness[photo.reference] ?? nil }
    let known = raw.compactMap { $0 }
    guard let top = known.max(), top > 0, known.count == raw.count else { return raw.map { _ in nil } }
    return raw.map { $0.map { Int(($0 / top * 100).rounded()) } }
  }
}
