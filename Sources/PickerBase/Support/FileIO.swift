import Foundation

/// The picker's few raw reads and writes, in one place: every loop retries
/// after a signal interrupts it (EINTR), the way each caller used to on its
/// own.
public enum FileIO {
  /// Reads what is there into `buffer` (blocking); the count, 0 at end of
  /// file, or -1 with errno set.
  public static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
    while true {
      let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      return n
    }
  }

  /// Writes every byte; false (errno set) when the descriptor refused some.
  @discardableResult
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      offset += n
    }
    return true
  }

  /// The bytes of a regular file of at most `limit` bytes; nil for anything
  /// else (a FIFO is never waited on, a huge file never read).
  public static func readSmallFile(_ path: String, limit: Int = 4 << 20) -> [UInt8]? {
    readSmallFile(open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), limit: limit)
  }

  /// The same by the path's bytes (a name need not be UTF-8).
  public static func readSmallFile(_ path: PathBytes, limit: Int = 4 << 20) -> [UInt8]? {
    let fd = (path.bytes + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    }
    return readSmallFile(fd, limit: limit)
  }

  private static func readSmallFile(_ fd: Int32, limit: Int) -> [UInt8]? {
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= limit else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var got = 0
    while got < bytes.count {
      let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + got, $0.count - got) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      got += n
    }
    return got == bytes.count ? bytes : nil
  }
}
