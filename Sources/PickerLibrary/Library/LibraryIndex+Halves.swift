import Foundation

/// Big reads by id in two halves at once, one on each connection. "Select
/// all" on 10,000 results and `--format json` of as many picks read each
/// row by its id: SQLite finds a row and the photo is made from it on one
/// core, so two connections on two cores take about half the time.
extension LibraryIndex {
  /// Below this many ids one connection reads them all: a second thread
  /// costs more than it saves.
  static let halvesMinimum = 2_000

  /// `read` run for the positions of `ids` in two halves at once (each
  /// writes what it made at the start of its part of the buffer and says
  /// how many), or once on this connection for a small read or an index
  /// in memory. What the halves made comes out one after the other.
  func inHalves<Made>(
    of ids: [Int64],
    _ read: (_ positions: Range<Int>, _ database: SQLiteDatabase, _ into: UnsafeMutablePointer<Made>)
      throws(SQLiteError) -> Int
  ) throws(SQLiteError) -> [Made] {
    var failure: SQLiteError?
    let made = [Made](unsafeUninitializedCapacity: ids.count) { buffer, count in
      guard let start = buffer.baseAddress else { return }
      let middle = ids.count / 2
      let halves = ids.count >= Self.halvesMinimum ? [0..<middle, middle..<ids.count] : [0..<ids.count]
      var counts = [Int](repeating: 0, count: halves.count)
      var errors = [SQLiteError?](repeating: nil, count: halves.count)
      nonisolated(unsafe) let into = start
      if halves.count == 1 {
        do throws(SQLiteError) {
          counts[0] = try withDatabase { database throws(SQLiteError) in try read(halves[0], database, into) }
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
                counted[half] =
                  half == 0
                  ? try withDatabase { database throws(SQLiteError) in try read(positions, database, part) }
                  : try withSideReader { database throws(SQLiteError) in try read(positions, database, part) }
              } catch { failed[half] = error }
            }
          }
        }
      }
      // The second half's photos moved down to follow the first's (a row
      // gone leaves a gap); moved, not copied.
      if halves.count == 2, counts[0] < halves[0].count {
        (start + counts[0]).moveInitialize(from: start + halves[1].lowerBound, count: counts[1])
      }
      count = counts.reduce(0, +)
      if let error = errors.lazy.compactMap({ $0 }).first {
        start.deinitialize(count: count)
        count = 0
        failure = error
      }
    }
    if let failure { throw failure }
    return made
  }

  /// Runs `body` on the side connection, opened on first use; on this
  /// connection (waiting for it) when there can be none.
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
