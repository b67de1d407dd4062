/// Many at once: the focused day, a range from the mark, everything listed,
/// and invert. What is loaded is used as it is; a listing only partly
/// loaded is asked of its source whole first (`PageLoad.sweep`), so a day
/// or "all" means the whole day or listing, not the pages seen.
extension AppState {
  /// The largest listing a sweep asks for at once.
  static let sweepLimit = 200_000

  mutating func selectMany(_ action: GridAction) -> [Effect] {
    guard let scope else { return [] }
    switch action {
    case .invertSelection: return selectMany(.invert)
    case .selectAll: return selectMany(.all)
    default: break
    }
    guard case .item(let index)? = scope.cell(at: scope.focus) else {
      notice = Notice("Put the focus on a photo first")
      return []
    }
    let focused = scope.items[index]
    switch action {
    case .mark:
      grid.mark = GridMark(generation: scope.generation, itemID: focused.id)
      notice = Notice("Marked \(Sanitizer.sanitize(focused.title)): M selects from here to the focus", isHint: true)
      return []
    case .selectRange:
      guard let mark = grid.mark, mark.generation == scope.generation, scope.itemIndex(ofPhotoID: mark.itemID) != nil
      else {
        notice = Notice("No mark in this listing: m marks the focused photo, then M selects from it to the focus")
        return []
      }
      return selectMany(.range(from: mark.itemID, to: focused.id))
    case .selectDay:
      guard scope.groupsByDay else {
        notice = Notice("Days are shown in Photos and in folders sorted by date taken (s)")
        return []
      }
      return selectMany(.day(focused.taken?.day))
    case .invertSelection: return selectMany(.invert)
    default: return selectMany(.all)
    }
  }

  mutating func selectMany(_ reach: SelectionReach) -> [Effect] {
    guard let scope else { return [] }
    if covers(scope, reach) {
      apply(reach, to: scope.items)
      return []
    }
    // The rest of the listing first: the whole of it, in one page.
    var request = PageRequest(offset: 0, limit: Self.sweepLimit, sort: scope.sort)
    request.hidesRejected = grid.hidesRejected
    var load = PageLoad(
      sourceIndex: grid.activeSource, scope: scope.kind, request: request, generation: scope.generation)
    load.sweep = reach
    notice = Notice("Listing the rest of \(scope.label) to select it…", isHint: true)
    return [.load(load)]
  }

  /// Whether the loaded entries hold every photo `reach` means.
  private func covers(_ scope: Scope, _ reach: SelectionReach) -> Bool {
    let whole = scope.baseOffset == 0 && !scope.hasMore && scope.prefetched == nil
    switch reach {
    case .range: return true
    case .all, .invert: return whole
    case .day(let day):
      if whole { return true }
      guard let day, let count = scope.days?.first(where: { $0.day == day })?.count else { return false }
      let loaded = scope.items.reduce(0) { $0 + ($1.taken?.day == day ? $1.stack?.count ?? 1 : 0) }
      return loaded >= count
    }
  }

  /// A sweep's page: the listing whole, stacked as the scope stacks it.
  mutating func receiveSweep(_ page: Page, for load: PageLoad) {
    guard let reach = load.sweep, let scope, scope.generation == load.generation,
      load.sourceIndex == grid.activeSource
    else { return }
    // Only the entries: a scope's days, sections and ids are not needed.
    let entries = scope.stacking?.entries(of: page.items) ?? page.items
    apply(reach, to: entries)
  }

  /// Selects (or inverts) the photos of `entries` that `reach` means: a
  /// stack gives its picked photo, else its cover.
  private mutating func apply(_ reach: SelectionReach, to entries: [PhotoItem]) {
    let chosen: ArraySlice<PhotoItem>
    switch reach {
    case .day(let day): chosen = ArraySlice(entries.filter { $0.taken?.day == day })
    case .range(let from, let to):
      guard let a = entries.firstIndex(where: { $0.id == from }), let b = entries.firstIndex(where: { $0.id == to })
      else { return }
      chosen = entries[min(a, b)...max(a, b)]
    case .all, .invert: chosen = entries[...]
    }
    let group = (pickGroups.map(\.id).max() ?? 0) + 1
    var adding: [PickedPhoto] = []
    adding.reserveCapacity(chosen.count)
    var removing = Set<SelectionKey>()
    // Nothing picked yet (the usual case): no photo to look up.
    let looksUp = !selection.isEmpty
    func consider(_ photo: PhotoItem) {
      guard photo.isPickable, let output = photo.pickedOutput else { return }
      if looksUp {
        let key = selectionKey(for: photo)
        if selection.contains(key) {
          if reach == .invert { removing.insert(key) }
          return
        }
      }
      adding.append(picked(photo, output: output, group: group))
    }
    // Each entry read in place, from a constant slice: a sweep's are
    // thousands, and a copy of each was most of the time.
    for entry in chosen.indices {
      if chosen[entry].stack != nil, let member = pickedMember(of: chosen[entry]) {
        consider(member)
      } else {
        consider(chosen[entry])
      }
    }
    let label = Self.label(of: reach, entries: chosen)
    if let maximum = options.limits.maximum {
      let room = max(0, maximum - (selection.count - removing.count))
      if adding.count > room {
        notice = Notice(
          "Only \(room) of the \(adding.count) fit: at most \(maximum) can be picked (--max \(maximum))",
          isError: true)
        adding.removeLast(adding.count - room)
      }
    }
    // Each change of the selection recounts the groups: one when nothing goes.
    if !removing.isEmpty { selection.remove(removing) }
    if !adding.isEmpty {
      // Before the photos go in: the count is kept as they do.
      pickGroups.append(PickGroup(label: label, id: group, picked: 0))
    }
    let added = selection.insert(contentsOf: adding)
    if notice?.isError != true {
      let unselected = removing.isEmpty ? "" : ", \(removing.count) unselected"
      notice = Notice("\(added) selected (\(label))\(unselected): \(selection.count) picked")
    }
  }

  /// The tray's word for what one key selected.
  private static func label(of reach: SelectionReach, entries: ArraySlice<PhotoItem>) -> String {
    switch reach {
    case .day(let day?): return "of " + CivilDate(dayNumber: day).dayMonthYear
    case .day(nil): return "undated"
    case .range: return "from the mark"
    case .all: return "all listed"
    case .invert: return "inverted"
    }
  }

  /// Keeps each group's count of photos still picked; groups with none go.
  mutating func recountPickGroups() {
    guard !pickGroups.isEmpty else { return }
    var counts: [Int: Int] = [:]
    for photo in selection.photos {
      if let group = photo.group { counts[group, default: 0] += 1 }
    }
    for index in pickGroups.indices { pickGroups[index].picked = counts[pickGroups[index].id] ?? 0 }
    pickGroups.removeAll { $0.picked == 0 }
  }
}
