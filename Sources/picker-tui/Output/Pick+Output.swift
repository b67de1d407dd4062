import Foundation
import PickerTUI

/// Where the picks go: the desktop chooser's file (`--chooser-file`),
/// `--format`'s lines, or the paths, on stdout.
extension Pick {
  func output(_ items: [PickedItem], config file: ConfigFile?, journal: JournalFile, environment: [String: String])
    throws
  {
    let pickFormat = try format.map(PickFormat.parse) ?? .paths
    if let chooserFile {
      let text = items.compactMap(\.path).map(Self.absolute).flatMap { $0.bytes + [UInt8(ascii: "\n")] }
      guard FileManager.default.createFile(atPath: chooserFile, contents: Data(text)) else {
        throw PickerExit(code: 2, message: "cannot write the chooser's file \(chooserFile)")
      }
      journal.remove()
      return
    }
    let separator = print0 ? 0 : UInt8(ascii: "\n")
    if pickFormat != .paths {
      if closedAtStart.contains(1) {
        throw PickerExit(code: 2, message: "cannot print the \(items.count) pick(s): stdout was closed")
      }
      let text = PickPrinter.text(of: items, format: pickFormat, index: Self.existingIndex(environment: environment))
      if try OutputWriter.write(text.map { PathBytes(Array($0.utf8)) }, separator: separator) { journal.remove() }
      return
    }
    // A remote pick printed as its URL (--print-urls) has no path.
    var lines = items.map { $0.path ?? PathBytes($0.url ?? "") }
    if liveVideos || file?.printsLiveVideos == true {
      lines = lines.flatMap { line in [line] + (LivePhotos.video(beside: line).map { [$0] } ?? []) }
    }
    if closedAtStart.contains(1) {
      throw PickerExit(code: 2, message: "cannot print the \(lines.count) picked path(s): stdout was closed")
    }
    // Kept for --resume unless everything was printed: a reader that
    // left early (| head -1) got only part.
    if try OutputWriter.write(lines, separator: separator) { journal.remove() }
  }

  /// A path as the desktop wants it: absolute (links kept as they are).
  static func absolute(_ path: PathBytes) -> PathBytes {
    if path.bytes.first == UInt8(ascii: "/") { return path }
    var bytes = path.bytes
    while bytes.starts(with: Array("./".utf8)) { bytes.removeFirst(2) }
    let base = Array(FileManager.default.currentDirectoryPath.utf8)
    return PathBytes(bytes == [UInt8(ascii: ".")] || bytes.isEmpty ? base : base + [UInt8(ascii: "/")] + bytes)
  }

  /// The library index, when there is one: --format's fields beyond what
  /// the listing said. Never made by a run that had none.
  static func existingIndex(environment: [String: String]) -> LibraryIndex? {
    let path = LibraryIndex.defaultPath(environment: environment)
    return FileManager.default.fileExists(atPath: path) ? LibraryIndex(path: path) : nil
  }
}
