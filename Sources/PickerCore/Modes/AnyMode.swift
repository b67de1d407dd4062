/// A mode on the stack, whatever its type. Each entry has its own number,
/// so a mode's update can find itself again after it opened another.
public struct AnyMode: Hashable, Sendable {
  public let base: any ModeModel
  let id: Int

  init(_ base: any ModeModel, id: Int) {
    self.base = base
    self.id = id
  }

  public static func == (lhs: AnyMode, rhs: AnyMode) -> Bool {
    lhs.id == rhs.id && AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(AnyHashable(base))
  }
}

extension ModeModel {
  /// Looks its action up in the app's key maps, then updates; opened up so
  /// the stack can call it on a mode of any type.
  mutating func handle(_ key: Key, app: AppState) -> ModeStep {
    let action = app.options.keys[Self.self].action(for: key)
    // Esc and Ctrl-C where the mode names no action of its own for them.
    if action == nil, let shared = app.options.keys.stack.action(for: key) {
      return shared == .back ? .leave : .cancel
    }
    return update(key: key, action: action, app: app)
  }

  /// A task's report, when it is one of this mode's messages.
  mutating func receiveAny(_ message: AnyHashableSendable, app: AppState) -> ModeStep {
    guard let message = message.base.base as? Message else { return .stay }
    return receive(message, app: app)
  }

  /// Whether it runs tasks (its tasks are stopped when it leaves).
  static var runsTasks: Bool { Message.self != NoMessage.self }
}
