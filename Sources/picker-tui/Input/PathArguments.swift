import Foundation
import PickerCore

/// Turns the command line's paths into sources: each folder becomes a Folder
/// source rooted where it was given; files, missing paths and stdin's paths
/// form the Preselected source.
struct PathArguments {
  var folders: [PathBytes] = []
  var files: [PathBytes] = []

  init(_ arguments: [String]) {
    for argument in arguments {
      let path = Self.rawBytes(of: argument)
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
      if exists && isDirectory.boolValue {
        folders.append(path)
      } else {
        files.append(path)
      }
    }
  }

  /// The argument's bytes as the shell passed them: ArgumentParser gives
  /// Strings, which cannot hold a name that is not UTF-8, so the matching
  /// raw argv entry is used instead.
  static func rawBytes(of argument: String) -> PathBytes {
    for index in 1..<Int(CommandLine.argc) {
      guard let pointer = CommandLine.unsafeArgv[index] else { continue }
      let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
      if String(decoding: bytes, as: UTF8.self) == argument { return PathBytes(bytes) }
    }
    return PathBytes(argument)
  }

  /// Titles for folder sources: "Files" for one, the folder names for more.
  func folderTitles() -> [String] {
    guard folders.count > 1 else { return folders.map { _ in "Files" } }
    return folders.map { Sanitizer.sanitize($0.lastComponent) }
  }
}

/// Reads paths from a descriptor on a background thread into a `PathStream`.
enum PathReader {
  static func start(descriptor: Int32, separator: UInt8, into stream: PathStream) {
    let thread = Thread {
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        pending.append(contentsOf: buffer[0..<count])
        var paths: [PathBytes] = []
        var start = 0
        while let end = pending[start...].firstIndex(of: separator) {
          if end > start { paths.append(PathBytes(Array(pending[start..<end]))) }
          start = end + 1
        }
        pending.removeFirst(start)
        if !paths.isEmpty { stream.append(contentsOf: paths) }
      }
      if !pending.isEmpty { stream.append(contentsOf: [PathBytes(pending)]) }
      stream.finish()
    }
    thread.start()
  }
}
