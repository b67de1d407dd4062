/// Stacks of near-identical shots in listings by date: `S` turns them off
/// and on, `c` on a stack compares its sharpest photos. (Enter opens a
/// stack, `open(stack:)`; Space on one picks its cover, the entry's own id.)
extension AppState {
  mutating func toggleStacks() {
    options.stacksPhotos.toggle()
    let rule = options.stacksPhotos ? options.stackingRule : nil
    for source in grid.scopeStacks.indices {
      for depth in grid.scopeStacks[source].indices where grid.scopeStacks[source][depth].groupsByDay {
        if case .stack = grid.scopeStacks[source][depth].kind { continue }
        grid.scopeStacks[source][depth].restack(rule)
      }
    }
    notice = Notice(
      options.stacksPhotos
        ? "Stacks on: near-identical shots show as one tile (Enter opens one; S turns them off)"
        : "Stacks off: every photo shows on its own (S turns them on)")
  }
}

extension AppState {
  /// A photo's sharpness within its stack (0-100 of the sharpest) and the
  /// stack's size: for a stack's tile, or a photo of the stack opened.
  public func stackSharpness(of item: PhotoItem) -> (score: Int, count: Int)? {
    if let stack = item.stack { return stack.score(of: item.id).map { ($0, stack.count) } }
    guard case .stack(let coverID)? = scope?.kind, grid.scopeStacks[grid.activeSource].count >= 2 else { return nil }
    let parent = grid.scopeStacks[grid.activeSource][grid.scopeStacks[grid.activeSource].count - 2]
    guard let index = parent.itemIndex(ofPhotoID: coverID), let stack = parent.items[index].stack else { return nil }
    return stack.score(of: item.id).map { ($0, stack.count) }
  }
}
