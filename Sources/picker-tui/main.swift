import ArgumentParser
import Foundation
import PickerTUI

// A camera RAW helper answers its parent and ends, before anything else.
if let status = RawIsolation.runHelperIfAsked() { exit(status) }
RawIsolation.isolate(executable: "/proc/self/exe")
// A reader that leaves early (| head -1) makes write() fail with EPIPE,
// which the output writer handles, instead of ending the process.
signal(SIGPIPE, SIG_IGN)

// Exit codes follow fzf: 0 picked, 1 nothing to pick from, 2 error, 130
// cancelled. ArgumentParser's own code for bad usage (64) becomes 2.
/// `picker-tui index` in a folder that has a sub-folder named index means that
/// folder: a path that exists wins over a subcommand of the same name, so a
/// pipe never receives help text instead of paths.
func argumentsPreferringPaths() -> [String] {
  var arguments = Array(CommandLine.arguments.dropFirst())
  let subcommands = ["pick", "preview", "thumbnail", "index", "doctor", "help"]
  if let first = arguments.first, subcommands.contains(first), FileManager.default.fileExists(atPath: first) {
    arguments.insert("pick", at: 0)
  }
  return arguments
}

/// `--max -1` would read as a missing value followed by an option `-1`:
/// joined into `--max=-1`, the number reaches validation, which says what is
/// wrong with it ("--max must be at least 1").
func joiningNegativeNumbers(_ arguments: [String]) -> [String] {
  let numeric: Set<String> = ["--max", "--min", "--page-size"]
  var result: [String] = []
  var index = 0
  while index < arguments.count {
    let argument = arguments[index]
    if argument == "--" { return result + arguments[index...] }
    if numeric.contains(argument), index + 1 < arguments.count, arguments[index + 1].dropFirst().allSatisfy(\.isNumber),
      arguments[index + 1].hasPrefix("-"), arguments[index + 1].count > 1
    {
      result.append(argument + "=" + arguments[index + 1])
      index += 2
      continue
    }
    result.append(argument)
    index += 1
  }
  return result
}

/// Set once, before anything opens a file.
let closedAtStart = StandardDescriptors.occupyClosed()

if VersionReport.isAsked(Array(CommandLine.arguments.dropFirst())) {
  print(VersionReport.text(environment: ProcessInfo.processInfo.environment))
  exit(0)
}
if TopLevelHelp.isAsked(argumentsPreferringPaths()) {
  print(TopLevelHelp.text())
  exit(0)
}

do {
  var command = try PickerCommand.parseAsRoot(joiningNegativeNumbers(argumentsPreferringPaths()))
  try command.run()
} catch let exit as PickerExit {
  if let message = exit.message {
    FileHandle.standardError.write(Data("picker-tui: \(message)\n".utf8))
  }
  Foundation.exit(exit.code)
} catch {
  let code = PickerCommand.exitCode(for: error)
  if code == .success {
    print(PickerCommand.fullMessage(for: error))
    Foundation.exit(0)
  }
  let text = "picker-tui: \(PickerCommand.message(for: error))\nSee 'picker-tui --help'.\n"
  FileHandle.standardError.write(Data(text.utf8))
  Foundation.exit(2)
}
