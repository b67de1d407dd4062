/// Which photos of a listing one key selects (`AppState+SelectMany`).
public enum SelectionReach: Hashable, Sendable {
  /// The photos of one day (nil: those without a date).
  case day(Int?)
  /// From one photo to another, both ends in, by their ids, in listing order.
  case range(from: String, to: String)
  /// Every photo listed.
  case all
  /// Every photo listed: the selected ones unselected, the others selected.
  case invert
}

/// Photos selected together by one key, shown in the tray as how many of
/// them are still picked ("45 of 14 Jun").
public struct PickGroup: Hashable, Sendable {
  public var label: String
  /// The photos it picked carry it (`PickedPhoto.group`): counting them
  /// is one pass over the selection, with nothing hashed.
  public var id: Int
  /// How many of its photos are picked now (kept by `AppState.selection`'s
  /// changes, so that drawing never walks them).
  public internal(set) var picked: Int

  public init(label: String, id: Int, picked: Int) {
    self.label = label
    self.id = id
    self.picked = picked
  }
}

/// Where `m` was pressed: a photo of one listing (its scope's generation).
public struct GridMark: Hashable, Sendable {
  public var generation: Int
  public var itemID: String
}
