import Foundation

/// Fills in the index's signatures (`PhotoSignature`: a difference hash
/// and a sharpness score) after a scan, for the photos that may stack:
/// those taken within `maxGap` seconds of their neighbour in date order.
/// Most photos have no such neighbour and are never decoded. What is
/// stored stays until the file changes, so the next start stacks at once.
public final class SignatureReader {
  let database: SQLiteDatabase
  let filter: LibraryFilter
  /// Photos decoded per committed batch.
  var batchSize = 32
  /// Asked between batches: true stops where it is (what was committed stays).
  var isCancelled: () -> Bool = { false }

  /// A photo whose signature is still to read.
  struct Unsigned {
    var id: Int64
    var path: PathBytes
  }

  public init(database: SQLiteDatabase, roots: [PathBytes]) {
    self.database = database
    self.filter = LibraryFilter(roots: roots)
  }

  /// Reads the missing signatures; `progress` is told (done, of) after
  /// each batch commits. Returns how many were read.
  @discardableResult
  public func run(maxGap: Double, progress: (Int, Int) -> Void = { _, _ in }) throws(SQLiteError) -> Int {
    let unsigned = try unsignedNeighbours(maxGap: maxGap)
    guard !unsigned.isEmpty else { return 0 }
    let store = try database.prepare("UPDATE photo SET hash = ?, sharpness = ? WHERE id = ?")
    var done = 0
    for start in stride(from: 0, to: unsigned.count, by: batchSize) {
      if isCancelled() { break }
      let batch = Array(unsigned[start..<min(start + batchSize, unsigned.count)])
      var read = [PhotoSignature?](repeating: nil, count: batch.count)
      read.withUnsafeMutableBufferPointer { results in
        let results = SharedBuffer(results)
        DispatchQueue.concurrentPerform(iterations: batch.count) { index in
          results.buffer[index] = PhotoSignature.read(file: batch[index].path)
        }
      }
      try database.transaction { () throws(SQLiteError) in
        for (photo, signature) in zip(batch, read) {
          // -1: tried and not decodable; not tried again until the file changes.
          let hash: Int64? = signature.map { Int64(bitPattern: $0.hash) }
          try store.run([hash, signature?.sharpness ?? -1, photo.id])
        }
      }
      done += batch.count
      progress(done, unsigned.count)
    }
    return done
  }

  /// Photos without a signature that have a neighbour in date order at
  /// most `maxGap` seconds away, newest first (what the timeline shows first).
  func unsignedNeighbours(maxGap: Double) throws(SQLiteError) -> [Unsigned] {
    let (condition, parameters) = filter.rootCondition()
    let gap = Int64(maxGap * 1000)
    let statement = try database.prepare(
      """
      SELECT id, path, name FROM (
        SELECT p.id, f.path, p.name, p.sharpness, p.taken, p.burst,
          p.taken - lag(p.taken) OVER w AS before, lead(p.taken) OVER w - p.taken AS after
        FROM photo p JOIN folder f ON f.id = p.folder
        -- A day-only date (read as midnight) and a file time are no times to
        -- stack on (StackingRule.seconds).
        -- Videos never stack, nor stand between two shots that do.
        WHERE \(condition) AND p.duration IS NULL AND p.origin != \(TakenDate.Origin.fileTime.rawValue)
          AND NOT (p.origin = \(TakenDate.Origin.fileName.rawValue) AND p.taken % 86400000 = 0)
        WINDOW w AS (ORDER BY p.taken, p.name))
      WHERE sharpness IS NULL AND (before <= ? OR after <= ? OR burst IS NOT NULL) ORDER BY taken DESC
      """)
    statement.bind(parameters + [gap, gap])
    var photos: [Unsigned] = []
    while try statement.step() {
      photos.append(Unsigned(id: statement.int(0), path: PathBytes(statement.bytes(1)).appending(statement.bytes(2))))
    }
    return photos
  }
}
