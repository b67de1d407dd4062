/// Culling: stars, rejects and colour labels given with a key in the grid,
/// the preview or compare. The verdict shows at once (`culling.given`);
/// the loop has every source keep it and writes its XMP in the background
/// (`Effect.cull`), so a key never waits for a disk.
extension AppState {
  /// A photo's verdict as shown: the one given in this run, else the one
  /// its source listed.
  public func culling(of item: PhotoItem) -> Culling {
    guard let path = item.outputPath else { return item.culling }
    return culling.given[path] ?? item.culling
  }

  /// A picked photo's verdict (compare's panes): given in this run, else
  /// as listed.
  public func culling(of photo: PickedPhoto) -> Culling {
    guard case .local(let path) = photo.output else { return .none }
    return currentCulling(of: path)
  }

  mutating func cull(_ command: CullingCommand, _ target: CullingTarget) -> [Effect] {
    if case .undo = command { return undoCulling() }
    let photos = cullingPhotos(target)
    guard !photos.isEmpty else { return [] }
    let change = Self.change(for: command, current: photos.map(\.culling))
    var undo: [CullingBook.CullingUndo] = []
    var effects: [Effect] = []
    for (path, current) in photos {
      let after = change.applied(to: current)
      undo.append(CullingBook.CullingUndo(path: path, before: current, change: change))
      culling.given[path] = after
      effects.append(.cull(CullingWrite(path: path, change: change, culling: after, options: options.xmp)))
    }
    culling.history.append(undo)
    if culling.history.count > CullingBook.historyLimit { culling.history.removeFirst() }
    if photos.count > 1 {
      let verdict = change.applied(to: .none)
      let said =
        command == .toggleReject
        ? (verdict.isRejected ? "rejected" : "unrejected")
        : change.setsLabel
          ? (verdict.label.map { "labelled \($0.name)" } ?? "label removed")
          : verdict.stars == 0 ? "stars removed" : verdict.starText
      notice = Notice("\(photos.count) selected photos \(said) (u undoes)")
    }
    return effects
  }

  /// What a key sets, from what the photos have now: a reject or a label
  /// toggles off only when every photo already has it.
  static func change(for command: CullingCommand, current: [Culling]) -> CullingChange {
    switch command {
    case .rate(let stars):
      return CullingChange(culling: Culling(rating: stars), setsRating: true, setsLabel: false)
    case .toggleReject:
      let all = current.allSatisfy(\.isRejected)
      return CullingChange(culling: Culling(rating: all ? 0 : -1), setsRating: true, setsLabel: false)
    case .toggleLabel(let label):
      let all = current.allSatisfy { $0.label == label }
      return CullingChange(culling: Culling(label: all ? nil : label), setsRating: false, setsLabel: true)
    case .undo:
      return CullingChange(culling: .none, setsRating: false, setsLabel: false)
    }
  }

  /// The last change taken back: each photo gets back what it had of the
  /// properties that change set (a label given since stays).
  private mutating func undoCulling() -> [Effect] {
    guard let last = culling.history.popLast() else {
      notice = Notice("Nothing to undo")
      return []
    }
    var effects: [Effect] = []
    for entry in last {
      let back = CullingChange(
        culling: entry.before, setsRating: entry.change.setsRating, setsLabel: entry.change.setsLabel)
      let after = back.applied(to: culling.given[entry.path] ?? entry.before)
      culling.given[entry.path] = after
      effects.append(.cull(CullingWrite(path: entry.path, change: back, culling: after, options: options.xmp)))
    }
    notice = Notice(last.count == 1 ? "Undone" : "Undone for \(last.count) photos")
    return effects
  }

  /// The local photos a culling key acts on, with their verdicts now.
  private mutating func cullingPhotos(_ target: CullingTarget) -> [(path: PathBytes, culling: Culling)] {
    switch target {
    case .photos(let photos):
      return photos.compactMap { photo in
        guard case .local(let path) = photo.output else {
          notice = Notice("Only local photos can be rated: their XMP is written beside them", isError: true)
          return nil
        }
        return (path, currentCulling(of: path))
      }
    case .focused, .focusedAlone:
      guard let item = focusedItem, !item.isFolder else { return [] }
      guard let path = item.outputPath, !item.isMissing else {
        notice = Notice("Only local photos can be rated: their XMP is written beside them", isError: true)
        return []
      }
      // On a selected photo, the key is for every selected one.
      let key = selectionKey(for: item)
      guard target == .focused, selection.contains(key), selection.count > 1 else { return [(path, culling(of: item))] }
      return cullingPhotos(.photos(selection.printed))
    }
  }

  /// The verdict of a photo known by its path: given in this run, else as
  /// a source last listed it (every photo picked was listed).
  func currentCulling(of path: PathBytes) -> Culling {
    culling.given[path] ?? culling.listed[path] ?? Culling.none
  }

  /// A write failed: said once per folder; the verdict stays shown and
  /// kept by the sources (the index) for this run and the next.
  mutating func receiveCullingWritten(_ write: CullingWrite, problem: String?) -> [Effect] {
    // Kept by the sources now: listings that leave photos out by their
    // verdict (H, a search by stars) are made again, so the pages after
    // stay where they belong; the focus stays on its photo.
    var effects: [Effect] = []
    if (grid.hidesRejected && write.change.setsRating) || scope.map(Self.filtersByVerdict) == true {
      for index in grid.scopeStacks.indices {
        for depth in grid.scopeStacks[index].indices {
          if case .stack = grid.scopeStacks[index][depth].kind { continue }
          grid.scopeStacks[index][depth].needsRelist = true
        }
      }
      effects = relistIfNeeded(sourceIndex: grid.activeSource)
    }
    sayUnwritten(write, problem: problem)
    return effects
  }

  /// A search with culling words (`rating>=3`) in it.
  static func filtersByVerdict(_ scope: Scope) -> Bool {
    guard case .search(let query, _) = scope.kind else { return false }
    var words = query.lowercased().split(separator: " ").map(String.init)
    return !CullingFilter.extract(from: &words).isEmpty
  }

  private mutating func sayUnwritten(_ write: CullingWrite, problem: String?) {
    guard let problem else { return }
    let folder = write.path.parentFolder
    guard culling.unwritable.insert(folder).inserted else { return }
    notice = Notice("Ratings kept in the index, not written: \(problem)", isError: true)
  }

  /// `H`: rejected photos hidden from every listing, or shown again.
  mutating func toggleHidingRejected() -> [Effect] {
    grid.hidesRejected.toggle()
    notice = Notice(grid.hidesRejected ? "Rejected photos hidden (H shows them)" : "Rejected photos shown")
    guard let scope else { return [] }
    if case .stack = scope.kind { return [] }
    var fresh = makeScope(scope.kind, label: scope.label, sort: scope.sort, of: grid.activeSource)
    fresh.scrollRow = 0
    self.scope = fresh
    return loadNextPage(sourceIndex: grid.activeSource)
  }
}
