import ArgumentParser
import Foundation
import PickerTUI

// `picker-bench`: the benchmarks, apart from the picker people install
// (`make bench` runs them). Camera RAWs are read in a helper process, as in
// the picker: this binary answers the helper's arguments itself.
if let status = RawIsolation.runHelperIfAsked() { exit(status) }
RawIsolation.isolate(executable: "/proc/self/exe")
signal(SIGPIPE, SIG_IGN)

do {
  var command = try Bench.parseAsRoot()
  try command.run()
} catch let exit as BenchExit {
  if let message = exit.message {
    FileHandle.standardError.write(Data("picker-bench: \(message)\n".utf8))
  }
  Foundation.exit(exit.code)
} catch {
  Bench.exit(withError: error)
}
