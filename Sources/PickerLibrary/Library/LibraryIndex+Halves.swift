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
/// task's thread (`SQLiteDatabase`'s progress handler), and a half that
/// stops or fails stops the other (`QueryStop`), so a cancelled read of
/// 200,000 ids gives its core back at once, not after a half's reading.
extension LibraryIndex {
  /// Below this many ids one connection reads them all: a second thread
  /// costs more than it saves.
  static let halvesMinimum = 2_000

  /// Where a half puts what it makes: its own part of the result's
  /// buffer, counted as each value goes in, so a half that throws leaves
  /// nothing behind.
  struct HalfOutput<Made> {
    fileprivate let start: UnsafeMutablePointer<Made>
    fileprivate(set) var count = 0

    mutating func append(_ value: Made) {
      (start + count).initialize(to: value)
      count += 1
    }
  }

  /// `read` run for the positions of `ids`: in two halves at once, or
  /// once on this connection for a small read or an index in memory
  /// (which has no second connection). What the halves made comes out
  /// one after the other.
  func inHalves<Made>(
    of ids: [Int64],
    _ read: (_ positions: Range<Int>, _ database: SQLiteDatabase, _ output: inout HalfOutput<Made>)
      throws(SQLiteError) -> Void
  ) throws(SQLiteError) -> [Made] {
    var failure: SQLiteError?
    let made = [Made](unsafeUninitializedCapacity: ids.count) { buffer, count in
      guard let start = buffer.baseAddress else { return }
      let middle = ids.count / 2
      let halves =
        ids.count >= Self.halvesMinimum && path != nil ? [0..<middle, middle..<ids.count] : [0..<ids.count]
      var outputs = halves.map { HalfOutput(start: start + $0.lowerBound) }
      var errors = [SQLiteError?](repeating: nil, count: halves.count)
      outputs.withUnsafeMutableBufferPointer { outputs in
        errors.withUnsafeMutableBufferPointer { errors in
          // Each half writes its own part of the buffer, its own output
          // and error: nothing is shared but what is only read. One half
          // runs on the calling thread.
          nonisolated(unsafe) let (written, failed, read) = (outputs, errors, read)
          let stop = QueryStop()
          DispatchQueue.concurrentPerform(iterations: halves.count) { half in
            do throws(SQLiteError) {
              let body = { (database: SQLiteDatabase) throws(SQLiteError) in
                try database.stopping(when: stop) { () throws(SQLiteError) in
                  try read(halves[half], database, &written[half])
                }
              }
              if half == 0 { try withDatabase(body) } else { try withSideReader(body) }
            } catch {
              failed[half] = error
              stop.raise()
            }
          }
        }
      }
      // The error that stopped the read, not the other half's stop.
      let failures = errors.compactMap { $0 }
      if let error = failures.first(where: { !SQLiteDatabase.isInterruption($0) }) ?? failures.first {
        // What either half made before the error goes.
        for output in outputs { output.start.deinitialize(count: output.count) }
        failure = error
        return
      }
      // The second half's values moved down to follow the first's (a row
      // gone leaves a gap); moved, not copied.
      if halves.count == 2, outputs[0].count < halves[0].count {
        (start + outputs[0].count).moveInitialize(from: outputs[1].start, count: outputs[1].count)
      }
      count = outputs.reduce(0) { $0 + $1.count }
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
