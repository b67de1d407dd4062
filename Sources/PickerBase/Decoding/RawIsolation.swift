import CImaging

/// How camera RAWs are read. LibRaw parses many makers' formats and the
/// version Debian ships can crash on a damaged file, so the picker reads
/// RAWs in a helper process: itself, started as `picker-tui --raw-helper`.
/// A crash or a hang there is an error on one tile, never the picker's end.
public enum RawIsolation {
  /// The argument that makes the executable a RAW helper.
  public static let helperArgument = "--raw-helper"

  /// Runs the helper and returns its exit status when this process was
  /// started as one; nil otherwise. Called first thing in main.
  public static func runHelperIfAsked() -> Int32? {
    guard CommandLine.arguments.count > 1, CommandLine.arguments[1] == helperArgument else { return nil }
    return pk_raw_helper_main(CommandLine.argc, CommandLine.unsafeArgv)
  }

  /// Reads RAWs in helper processes started from `executable` (Linux;
  /// elsewhere RAWs stay in process).
  public static func isolate(executable: String) {
    pk_set_raw_reader(PK_RAW_ISOLATED, executable)
  }

  /// Ends the helper servers kept for the next RAW (a host that embeds
  /// the picker goes on after it).
  public static func endHelpers() {
    pk_raw_end_servers()
  }

  /// Camera RAWs are not read at all: for fuzzing everything else.
  public static func turnOff() {
    pk_set_raw_reader(PK_RAW_OFF, nil)
  }
}
