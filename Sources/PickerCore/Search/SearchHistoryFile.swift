import Foundation

/// Keeps the searches kept with Enter on disk, one a line, oldest first
/// (`$XDG_STATE_HOME/picker-tui/search-history`, 0600), like a shell's
/// history: Up in search recalls them in the next run. Written on a queue
/// of its own, never on the UI thread's path.
public final class SearchHistoryFile: @unchecked Sendable {
  public let path: String
  private let queue = DispatchQueue(label: "picker-tui.search-history")

  public init(path: String) { self.path = path }

  public static func forCurrentUser(environment: [String: String]) -> SearchHistoryFile {
    SearchHistoryFile(path: PrivateFiles.stateFolder(environment: environment) + "/search-history")
  }

  /// The searches of earlier runs; none when there is no file or it cannot
  /// be read.
  public func load() -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    return Array(lines.filter { !$0.isEmpty }.suffix(AppState.searchHistoryLength))
  }

  /// Replaces the file with `searches` (a search kept by another run
  /// meanwhile is lost: the last run to keep one wins, as with most shells'
  /// plain history files).
  public func save(_ searches: [String]) {
    // A line break in a query would split it in two on reading.
    let text = searches.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n") + "\n"
    queue.async { [path] in try? PrivateFiles.write(Array(text.utf8), to: path) }
  }

  /// Waits for what was saved to be written (the exit paths).
  public func flush() { queue.sync {} }
}
