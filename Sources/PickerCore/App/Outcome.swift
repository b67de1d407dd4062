/// How the picker ends.
public enum Outcome: Hashable, Sendable {
  /// Confirmed: print these paths, exit 0.
  case picked([PathBytes])
  /// Esc, q or Ctrl-C: print nothing, exit 130.
  case cancelled
  /// No source had anything to show: exit 1.
  case nothingToPick
}
