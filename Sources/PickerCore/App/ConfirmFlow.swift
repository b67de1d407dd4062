/// What happens to the picks around confirming them, beyond choosing them
/// (`Selection`): an unfinished run's picks offered back, the picked files
/// found gone at a confirm, and what the last confirm handed out.
public struct ConfirmFlow: Hashable, Sendable {
  /// Picks of an unfinished run that R (or --resume) restores.
  public var resumeOffer: ResumeOffer?
  /// Picked files found gone at a confirm: the tray marks them.
  public var missingPicks: Set<SelectionKey> = []
  /// What the last confirm handed out, once it finished: the picks behind
  /// `.finish(.picked)`'s paths, in the same order (an embedding host gets
  /// their sources and ids).
  public internal(set) var confirmed: PickCheck?
  /// The gone files the user was told about: Enter again prints the rest.
  var acknowledgedMissing: Set<PathBytes> = []

  public init() {}
}
