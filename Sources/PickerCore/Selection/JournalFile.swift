import Foundation

/// Keeps the selection journal on disk (`$XDG_STATE_HOME/picker-tui/
/// selection.json`, 0600, replaced by temporary file + rename). Writes are
/// debounced and done on a queue of their own, never on the UI thread's
/// path; `flush` and `remove` wait, for the exit paths.
public final class JournalFile: @unchecked Sendable {
  public let path: String
  /// What the picks belong to: the run's sources and their roots, so
  /// that picks saved over one library are never offered in another.
  public var run: String?
  private let queue = DispatchQueue(label: "picker-tui.journal")
  private let delay: DispatchTimeInterval
  /// The selection waiting to be written; guarded by `queue`.
  private var pending: Selection?
  private var scheduled = false

  public init(path: String, delay: DispatchTimeInterval = .milliseconds(200)) {
    self.path = path
    self.delay = delay
  }

  public static func forCurrentUser(environment: [String: String]) -> JournalFile {
    JournalFile(path: PrivateFiles.stateFolder(environment: environment) + "/selection.json")
  }

  /// The journal left by an earlier run of the same sources and roots, if any.
  public func load() -> SelectionJournal? {
    guard let data = FileManager.default.contents(atPath: path),
      let journal = SelectionJournal.decode(Array(data)), journal.run == run
    else { return nil }
    return journal
  }

  /// The run key of `sources`: each one's id and roots, one a line.
  public static func run(of sources: [SourceSummary]) -> String {
    sources.map { "\($0.id)\t\($0.rootLabel)" }.joined(separator: "\n")
  }

  /// Records `selection`; written after a short quiet time, so a burst of
  /// Space presses is one write.
  public func record(_ selection: Selection) {
    queue.async {
      self.pending = selection
      guard !self.scheduled else { return }
      self.scheduled = true
      self.queue.asyncAfter(deadline: .now() + self.delay) { self.writePending() }
    }
  }

  /// Writes what is pending now and waits (cancel, hang-up, signals).
  public func flush() {
    queue.sync { writePending() }
  }

  /// Everything was printed: nothing to resume. Drops what is pending too.
  public func remove() {
    queue.sync {
      pending = nil
      unlink(path)
    }
  }

  private func writePending() {
    scheduled = false
    guard let selection = pending else { return }
    pending = nil
    if selection.isEmpty {
      unlink(path)
    } else {
      // A journal that cannot be written must not stop the picker.
      try? PrivateFiles.write(SelectionJournal(selection, run: run).encoded(), to: path)
    }
  }
}
