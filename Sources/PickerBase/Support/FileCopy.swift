import Foundation

/// Copies a local file into an open descriptor, in chunks, with progress.
package enum FileCopy {
  package static func copy(
    from path: PathBytes, into file: Int32, progress: @Sendable (Int64, Int64?) -> Void,
    isCancelled: @Sendable () -> Bool
  ) throws(SourceError) {
    let source = path.bytes.withUnsafeBufferPointer { buffer -> Int32 in
      let cPath = Array(buffer) + [0]
      return cPath.withUnsafeBufferPointer {
        open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      }
    }
    guard source >= 0 else {
      throw SourceError("cannot read \(Sanitizer.sanitize(path.bytes)): \(String(cString: strerror(errno)))")
    }
    defer { close(source) }
    var info = stat()
    guard fstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw SourceError("\(Sanitizer.sanitize(path.bytes)) is not a regular file")
    }
    let total = Int64(info.st_size)
    var copied: Int64 = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      if isCancelled() { throw SourceError("cancelled") }
      let n = FileIO.read(source, into: &buffer)
      if n < 0 { throw SourceError("cannot read \(Sanitizer.sanitize(path.bytes))") }
      if n == 0 { break }
      guard FileIO.writeAll(file, Array(buffer[..<n])) else { throw SourceError("cannot write the download") }
      copied += Int64(n)
      progress(copied, total)
    }
  }
}
