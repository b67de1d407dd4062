/// One line of the config's `[keys]` tables: an action and its new keys.
public struct KeyRebinding: Hashable, Sendable {
  public var mode: String
  public var action: String
  public var keys: [Key]

  public init(mode: String, action: String, keys: [Key]) {
    self.mode = mode
    self.action = action
    self.keys = keys
  }
}

extension KeyMaps {
  /// The standard maps with the config's rebindings applied in order.
  public static func standard(with rebindings: [KeyRebinding]) -> KeyMaps {
    KeyMaps.standard.applying(rebindings)
  }

  /// These maps (with the modes registered in them) with the config's
  /// rebindings applied in order.
  public func applying(_ rebindings: [KeyRebinding]) -> KeyMaps {
    var maps = self
    for rebinding in rebindings { _ = maps.rebind(mode: rebinding.mode, action: rebinding.action, to: rebinding.keys) }
    return maps
  }
}
