import Foundation

/// Ends the benchmark with a code and, for errors, a message on stderr.
struct BenchExit: Error {
  var code: Int32
  var message: String?
}

/// The picker the `--exec` benches start: `picker-tui` beside this binary
/// (both are built into the same folder), or `$PICKER_TUI_BIN`.
enum PickerBinary {
  static var path: String {
    if let given = ProcessInfo.processInfo.environment["PICKER_TUI_BIN"], !given.isEmpty { return given }
    let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return (own as NSString).deletingLastPathComponent + "/picker-tui"
  }
}
