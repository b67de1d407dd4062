/// Work a mode wants done outside its pure update (a download, a sign-in):
/// the loop runs it with what only the loop holds (`ModeTaskContext`), and
/// every report comes back to the mode that asked, as one of its own
/// messages (`ModeModel.receive`). So a mode that does I/O adds no case to
/// `AppEvent` or `Effect`, and no branch to `Update` or the effect runner.
///
/// A mode asks with `ModeIntent.run`; the stack tags the task with the
/// mode's entry (`Effect.modeTask`), and when the mode leaves, its tasks
/// are told to stop (`Effect.stopModeTasks`, the context's `isStopped`).
public struct ModeTask: Hashable, Sendable {
  /// What the work is (a download's plan, a sign-in's source): equality,
  /// for tests and for the journal; the body is not compared.
  public let what: AnyHashableSendable
  let body: @Sendable (ModeTaskContext) -> Void

  /// `body` runs on a thread of its own (it may block: transfers do) and
  /// reports through `context.report`, as often as it likes.
  public init(_ what: some Hashable & Sendable, body: @escaping @Sendable (ModeTaskContext) -> Void) {
    self.what = AnyHashableSendable(what)
    self.body = body
  }

  public static func == (lhs: ModeTask, rhs: ModeTask) -> Bool { lhs.what == rhs.what }
  public func hash(into hasher: inout Hasher) { hasher.combine(what) }

  /// Runs the body with `context` (the loop calls it on a thread of its own).
  public func run(_ context: ModeTaskContext) { body(context) }
}

/// What a mode's task can use: the sources and the downloader the loop
/// holds, a way to report to its mode, and whether the mode has left.
public struct ModeTaskContext: Sendable {
  public let sources: [any PhotoSource]
  public let downloader: Downloader
  /// Sends a message to the mode that asked (dropped when it has left).
  public let report: @Sendable (AnyHashableSendable) -> Void
  /// True once the mode left the stack: the work may stop.
  public let isStopped: @Sendable () -> Bool

  public init(
    sources: [any PhotoSource], downloader: Downloader, report: @escaping @Sendable (AnyHashableSendable) -> Void,
    isStopped: @escaping @Sendable () -> Bool
  ) {
    self.sources = sources
    self.downloader = downloader
    self.report = report
    self.isStopped = isStopped
  }

  /// Reports one of the mode's messages.
  public func send(_ message: some Hashable & Sendable) { report(AnyHashableSendable(message)) }
}

/// A hashable value that crosses threads: a mode's message on its way back,
/// what a task is. Only Sendable values go in, so the box may cross.
public struct AnyHashableSendable: Hashable, @unchecked Sendable {
  public let base: AnyHashable

  public init(_ value: some Hashable & Sendable) { base = AnyHashable(value) }
}

/// The message type of a mode that does no I/O.
public enum NoMessage: Hashable, Sendable {}
