/// The modes opened over the grid, the last on top: each takes the keys
/// from the one below, and going back (Esc) leaves the top one. The grid
/// is the floor, never on the stack (`AppState+Modes`). Each entry gets a
/// number never given again in the run, which its tasks' reports carry.
public struct ModeStack: Hashable, Sendable {
  public private(set) var entries: [AnyMode] = []
  private var nextID = 1

  public init() {}

  public var isEmpty: Bool { entries.isEmpty }
  public var top: AnyMode? { entries.last }

  func entry(id: Int) -> AnyMode? { entries.first { $0.id == id } }

  mutating func push(_ mode: some ModeModel) {
    entries.append(AnyMode(mode, id: nextID))
    nextID += 1
  }

  mutating func pop() { _ = entries.popLast() }

  mutating func removeAll() { entries.removeAll() }

  /// The mode with this number updated, or taken off when `leaves`.
  mutating func settle(id: Int, as mode: any ModeModel, leaves: Bool) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    if leaves {
      entries.remove(at: index)
    } else {
      entries[index] = AnyMode(mode, id: id)
    }
  }
}
