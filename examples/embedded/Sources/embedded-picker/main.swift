import Foundation
import PickerTUI

// Camera RAWs are read in a helper process: this program itself, started
// with Picker.helperArgument. It answers and ends here before anything else.
if let status = Picker.runHelperIfAsked() { exit(status) }

// embedded-picker [COUNT] [PAGE-SIZE]: COUNT generated photos, listed in
// pages of PAGE-SIZE.
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 12
let folder = NSTemporaryDirectory() + "embedded-picker-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

// This program's own choice for SIGUSR1, to show the picker gives it back.
signal(SIGUSR1, SIG_IGN)

var options = PickerOptions()
options.maximum = 5
options.pageSize = arguments.dropFirst().first
options.cameraRAW = .helper(executable: "/proc/self/exe")

/// The program's open descriptors. A picker that cannot start (no
/// terminal, an unknown one) leaves none of its own behind, so a host can
/// carry on or ask again. (One that ran leaves the Swift runtime's own
/// event descriptors, made once per process.)
func openDescriptors() -> Set<String> {
  Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [])
}

let picker = Picker(sources: [try GeneratedPhotos(folder: folder, count: count)], options: options)
let descriptorsBefore = openDescriptors()
let result: PickResult
do {
  result = try picker.run()
} catch {
  FileHandle.standardError.write(Data("embedded-picker: \(error)\n".utf8))
  let left = openDescriptors().subtracting(descriptorsBefore).count
  print(left == 0 ? "descriptors: as before" : "descriptors: \(left) left open")
  exit(2)
}

// signal() answers with the handler it replaces: the program's, if the
// picker put it back.
let handler = signal(SIGUSR1, SIG_IGN)
let kept = unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
print("SIGUSR1 handler: \(kept ? "the program's own" : "changed")")

switch result {
case .picked(let items):
  for item in items {
    print("picked \(item.itemID) from \(item.sourceID): \(item.title) at \(item.path?.lossyString ?? "-")")
  }
case .cancelled: print("cancelled")
case .nothingToPick: print("nothing to pick")
case .interrupted(let signal): print("interrupted by signal \(signal)")
}
