/// What a source tells the picker unasked.
public enum SourceChange: Hashable, Sendable {
  /// A line for the status bar while work goes on; nil when it is done.
  case status(String?)
  /// Its listings have changed: what is shown should be listed again.
  case contentChanged
}
