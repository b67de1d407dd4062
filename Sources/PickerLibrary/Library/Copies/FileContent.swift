import Foundation

/// What copy finding reads of a file: a hash of its head and tail (cheap:
/// two reads whatever its size), a hash of all of it, and a byte-for-byte
/// comparison of two files (the confirmation: a hash only says where to
/// look, and two photos that differ by one byte must never be one).
enum FileContent {
  /// The part read at each end for the quick hash.
  static let endBytes = 64 << 10

  /// A hash of the first and last `endBytes` (the whole of a smaller file).
  static func headAndTailHash(_ path: PathBytes) -> Int64? {
    withOpenFile(path) { fd, size in
      var hasher = ContentHasher()
      var buffer = [UInt8](repeating: 0, count: endBytes)
      guard let head = readFully(fd, at: 0, count: min(size, endBytes), into: &buffer) else { return nil }
      hasher.add(buffer[0..<head])
      if size > endBytes {
        let tailStart = max(endBytes, size - endBytes)
        guard let tail = readFully(fd, at: tailStart, count: size - tailStart, into: &buffer) else { return nil }
        hasher.add(buffer[0..<tail])
      }
      return Int64(bitPattern: hasher.finish(length: size))
    }
  }

  /// A hash of every byte.
  static func wholeHash(_ path: PathBytes) -> Int64? {
    withOpenFile(path) { fd, size in
      var hasher = ContentHasher()
      var buffer = [UInt8](repeating: 0, count: 1 << 20)
      var offset = 0
      while offset < size {
        guard let got = readFully(fd, at: offset, count: min(buffer.count, size - offset), into: &buffer) else {
          return nil
        }
        hasher.add(buffer[0..<got])
        offset += got
      }
      return Int64(bitPattern: hasher.finish(length: size))
    }
  }

  /// Whether two files hold the same bytes.
  static func same(_ first: PathBytes, _ second: PathBytes) -> Bool {
    withOpenFile(first) { a, sizeA in
      withOpenFile(second) { b, sizeB in
        guard sizeA == sizeB else { return false }
        var left = [UInt8](repeating: 0, count: 1 << 20)
        var right = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < sizeA {
          let count = min(left.count, sizeA - offset)
          guard let l = readFully(a, at: offset, count: count, into: &left),
            let r = readFully(b, at: offset, count: count, into: &right), l == count, r == count,
            left[0..<count] == right[0..<count]
          else { return false }
          offset += count
        }
        return true
      } ?? false
    } ?? false
  }

  private static func withOpenFile<T>(_ path: PathBytes, _ body: (Int32, Int) -> T?) -> T? {
    let fd = (path.bytes + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    }
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return body(fd, Int(info.st_size))
  }

  /// `count` bytes from `offset` into the start of `buffer`; what was read
  /// (less at the end of a file that shrank), nil on an error.
  private static func readFully(_ fd: Int32, at offset: Int, count: Int, into buffer: inout [UInt8]) -> Int? {
    var got = 0
    while got < count {
      let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(offset + got)) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return nil }
      if n == 0 { break }
      got += n
    }
    return got
  }
}

/// A 64-bit hash of a stream of bytes, eight at a time: a filter that says
/// which files may be the same (`FileContent.same` confirms), so it needs
/// to be fast and spread well, not to resist anyone.
struct ContentHasher {
  private var state: UInt64 = 0x243F_6A88_85A3_08D3
  private var pending: [UInt8] = []

  mutating func add(_ bytes: ArraySlice<UInt8>) {
    var slice = bytes
    if !pending.isEmpty {
      let take = min(8 - pending.count, slice.count)
      pending += slice.prefix(take)
      slice = slice.dropFirst(take)
      if pending.count == 8 {
        mix(pending.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        pending.removeAll(keepingCapacity: true)
      }
    }
    let words = slice.count / 8
    slice.withUnsafeBytes { raw in
      for index in 0..<words { mix(raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) }
    }
    pending += slice.suffix(slice.count - words * 8)
  }

  private mutating func mix(_ word: UInt64) {
    var value = word &* 0x9E37_79B9_7F4A_7C15
    value = (value << 31) | (value >> 33)
    state = (state ^ value) &* 0xBF58_476D_1CE4_E5B9
    state = (state << 27) | (state >> 37)
  }

  mutating func finish(length: Int) -> UInt64 {
    var tail: UInt64 = 0
    for (index, byte) in pending.enumerated() { tail |= UInt64(byte) << (8 * UInt64(index)) }
    mix(tail ^ UInt64(pending.count) << 56)
    var value = state ^ UInt64(length)
    value ^= value >> 33
    value = value &* 0xFF51_AFD7_ED55_8CCD
    value ^= value >> 33
    value = value &* 0xC4CE_B9FE_1A85_EC53
    value ^= value >> 33
    return value
  }
}
