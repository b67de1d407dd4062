import Foundation

/// Big reads by id in two halves at once, one on each connection. "Select
/// all" on 10,000 results and `--format json` of as many picks read each
/// row by its id: SQLite finds a row and the photo is made from it on one
/// core, so two connections on two cores take about half the time.
///
/// Each half reads in a transaction of its own: a write landing between
/// them (a verdict given) may show in one half and not yet in the other,
/// as it would in the next page. A half runs on a thread of the system's,
/// outside the task that asked: a cancelled search stops the half on the
/// task's thread (`SQLiteDatabase`'s progress handler), the other reads to
/// its end, and what was read is thrown away.
extension LibraryIndex {
  /// Below this many ids one connection reads them all: a second thread
  /// costs more than it saves.
  static let halvesMinimum = 2_000

  /// `read` run for the positions of `ids`: in two halves at once, or
  /// once on this connection for a small read or an index in memory
  /// (which has no second connection). Each call writes what it made at
  /// the start of its part of the buffer, counting each one as it is
  /// written (`made`), so a half that throws leaves nothing behind. What
  /// the halves made comes out one after the other.
  func inHalves<Made>(
    of ids: [Int64],
    _ read: (_ positions: Range<Int>, _ database: SQLiteDatabase, _ into: UnsafeMutablePointer<Made>, _ made: inout Int)
      throws(SQLiteError) -> Void
  ) throws(SQLiteError) -> [Made] {
    var failure: SQLiteError?
    let made = [Made](unsafeUninitializedCapacity: ids.count) { buffer, count in
      guard let start = buffer.baseAddress else { return }
      let middle = ids.count / 2
      let halves =
        ids.count >= Self.halvesMinimum && path != nil ? [0..<middle, middle..<ids.count] : [0..<ids.count]
      var counts = [Int](repeating: 0, count: halves.count)
      var errors = [SQLiteError?](repeating: nil, count: halves.count)
      nonisolated(unsafe) let into = start
      if halves.count == 1 {
        do throws(SQLiteError) {
          try withDatabase { database throws(SQLiteError) in try read(halves[0], database, into, &counts[0]) }
        } catch {
          errors[0] = error
        }
      } else {
        counts.withUnsafeMutableBufferPointer { counts in
          errors.withUnsafeMutableBufferPointer { errors in
            nonisolated(unsafe) let (counted, failed) = (counts, errors)
            // Each half writes its own part of the buffer, its own count
            // and error: nothing is shared but what is only read.
            nonisolated(unsafe) let read = read
            DispatchQueue.concurrentPerform(iterations: 2) { half in
              let positions = halves[half]
              let part = into + positions.lowerBound
              do throws(SQLiteError) {
                if half == 0 {
                  try withDatabase { database throws(SQLiteError) in try read(positions, database, part, &counted[0]) }
                } else {
                  try withSideReader { database throws(SQLiteError) in
                    try read(positions, database, part, &counted[1])
                  }
                }
              } catch { failed[half] = error }
            }
          }
        }
      }
      if let error = errors.lazy.compactMap({ $0 }).first {
        // What either half made before the error goes.
        for (half, positions) in halves.enumerated() {
          (start + positions.lowerBound).deinitialize(count: counts[half])
        }
        failure = error
        return
      }
      // The second half's photos moved down to follow the first's (a row
      // gone leaves a gap); moved, not copied.
      if halves.count == 2, counts[0] < halves[0].count {
        (start + counts[0]).moveInitialize(from: start + halves[1].lowerBound, count: counts[1])
      }
      count = counts.reduce(0, +)
    }
    if let failure { throw failure }
    return made
  }

  /// Runs `body` on the side connection, opened on first use; on this
  /// connection (waiting for it) when it cannot be opened, which is tried
  /// once.
  private func withSideReader<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    sideLock.lock()
    defer { sideLock.unlock() }
    if sideReader == nil {
      sideReader = .some(
        path.flatMap { path in
          guard let reader = try? SQLiteDatabase(path: path, readOnly: true),
            (try? reader.execute(Self.connectionPragmas)) != nil
          else { return nil }
          return reader
        })
    }
    guard let reader = sideReader ?? nil else { return try withDatabase(body) }
    return try body(reader)
  }
}
