import Foundation
import PickerTUI

/// Writes picked paths to stdout, raw, each followed by the separator.
enum OutputWriter {
  /// False when the reader went away before everything was written.
  @discardableResult
  static func write(_ paths: [PathBytes], separator: UInt8, trailing: Bool = true) throws -> Bool {
    var bytes: [UInt8] = []
    for path in paths {
      bytes += path.bytes
      if trailing { bytes.append(separator) }
    }
    if FileIO.writeAll(1, bytes) { return true }
    // A reader that went away (| head -1) is not an error of ours.
    if errno == EPIPE { return false }
    throw PickerExit(code: 2, message: "cannot write to stdout: \(String(cString: strerror(errno)))")
  }
}
