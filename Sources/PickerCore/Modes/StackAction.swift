/// The two keys every mode shares, bound once for all of them by the stack
/// (`[keys.modes]`): Esc goes back, Ctrl-C ends the run at once. A mode
/// names the action of its own they stand for (`ModeModel.backAction`,
/// `cancelAction`: the download's "stop", the question's "leave without
/// them"), and its map shows them there in help and hints; a mode that
/// names none is left on Esc and the run ends on Ctrl-C. A key a mode binds
/// itself stays the mode's.
public enum StackAction: String, CaseIterable, KeyCommand {
  case back, cancel
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

extension KeyMap where Command == StackAction {
  public static let stack = KeyMap(
    title: "every mode",
    bindings: [
      .init([.escape], .back, help: "back"),
      .init([.ctrl("c")], .cancel, help: "cancel"),
    ])
}

extension KeyMap {
  /// This mode's map with the stack's keys added to the actions they stand
  /// for here (Esc first, Ctrl-C last), leaving out keys the mode binds
  /// itself.
  func merging(_ stack: KeyMap<StackAction>, back: Command?, cancel: Command?) -> KeyMap {
    var merged = self
    for (stackAction, own) in [(StackAction.back, back), (.cancel, cancel)] {
      guard let own else { continue }
      let free = stack.keys(for: stackAction).filter { key in !merged.bindings.contains { $0.keys.contains(key) } }
      guard !free.isEmpty else { continue }
      guard let index = merged.bindings.firstIndex(where: { $0.action == own }) else {
        // Not in the mode's table: a row of its own, in the stack's words.
        merged.bindings.append(
          Binding(free, own, help: stackAction.name, hint: stackAction == .back ? stackAction.name : nil))
        continue
      }
      merged.bindings[index].keys =
        stackAction == .back ? free + merged.bindings[index].keys : merged.bindings[index].keys + free
    }
    return merged
  }
}
