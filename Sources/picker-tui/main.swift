import ArgumentParser
import Foundation

// Exit codes follow fzf: 0 picked, 1 nothing to pick from, 2 error, 130
// cancelled. ArgumentParser's own code for bad usage (64) becomes 2.
do {
  var command = try PickerCommand.parseAsRoot()
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
