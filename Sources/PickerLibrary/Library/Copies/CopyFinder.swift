import Foundation

/// Finds byte-identical copies among the photos under the roots (a photo
/// copied into two album folders) after a scan, so the timeline shows each
/// photo once: the copy in the first root, first by path, counts its
/// copies, and the others point at it (`copy_of`), which the timeline's
/// listings and day counts leave out. Folders are untouched: they list
/// every file where it is.
///
/// Empty files are never copies: a folder of failed downloads or cloud
/// placeholders must show every one of them as the damage it is, not
/// one tile. Only files whose size another file under the roots shares are read:
/// their head and tail first, then every byte where those agree too. A
/// copy is marked only once compared byte for byte with the one shown, so
/// a photo that differs by one byte is never hidden. Hashes stay until the
/// file changes; a rescan reads nothing again.
public final class CopyFinder {
  let database: SQLiteDatabase
  let filter: LibraryFilter
  /// Files hashed per committed batch.
  var batchSize = 64
  var isCancelled: () -> Bool = { false }
  /// Whether the last run showed or hid a photo that it had not.
  public private(set) var changedMarks = false

  struct Member {
    var id: Int64
    var path: PathBytes
    var size: Int64
    var head: Int64?
    var whole: Int64?
    var copyOf: Int64?
  }

  private struct Key: Hashable {
    var size: Int64
    var hash: Int64
  }

  public init(database: SQLiteDatabase, roots: [PathBytes]) {
    self.database = database
    self.filter = LibraryFilter(roots: roots)
  }

  /// Brings the marks up to date; returns how many photos under the roots
  /// are copies of one shown. `changed` false: the scan before found nothing
  /// new, moved or gone, and when the last run was over the same roots
  /// nothing can have changed (a rescan of a large library skips the query).
  @discardableResult
  public func run(changed: Bool = true) throws(SQLiteError) -> Int {
    let rootsKey = filter.roots.map(\.lossyString).joined(separator: "\n")
    if !changed, try lastRoots() == rootsKey { return try markedCount() }
    var members = try sameSized()
    try fill(&members, where: { $0.head == nil }, column: "head_hash", keyPath: \.head) {
      FileContent.headAndTailHash($0)
    }
    // A file no longer than the two ends was read whole for its first
    // hash: that hash is its whole hash too.
    for index in members.indices
    where members[index].whole == nil && members[index].size <= 2 * Int64(FileContent.endBytes) {
      members[index].whole = members[index].head
    }
    let byHead = groups(of: members, by: { $0.head })
    try fill(
      &members, among: byHead.flatMap { $0 }, where: { $0.whole == nil }, column: "content_hash", keyPath: \.whole
    ) {
      FileContent.wholeHash($0)
    }
    var wanted: [Int64: (copyOf: Int64?, copies: Int)] = [:]
    for group in groups(of: members, among: byHead.flatMap { $0 }, by: { $0.whole }) {
      let ordered = group.map { members[$0] }.sorted(by: shownFirst)
      let shown = ordered[0]
      var hidden = 0
      for member in ordered.dropFirst() {
        // Already this one's copy, or the same bytes now.
        guard member.copyOf == shown.id || FileContent.same(shown.path, member.path) else { continue }
        wanted[member.id] = (shown.id, 0)
        hidden += 1
      }
      if hidden > 0 { wanted[shown.id] = (nil, hidden) }
    }
    try apply(wanted)
    try database.prepare("INSERT OR REPLACE INTO meta VALUES ('copies_roots', ?)").run([rootsKey])
    return wanted.values.filter { $0.copyOf != nil }.count
  }

  /// The roots the last run was over.
  private func lastRoots() throws(SQLiteError) -> String? {
    let statement = try database.prepare("SELECT value FROM meta WHERE key = 'copies_roots'")
    return try statement.step() ? statement.text(0) : nil
  }

  /// Photos under the roots marked as copies.
  private func markedCount() throws(SQLiteError) -> Int {
    let (condition, parameters) = filter.rootCondition()
    let statement = try database.prepare(
      "SELECT count(*) FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition) AND p.copy_of IS NOT NULL")
    statement.bind(parameters)
    _ = try statement.step()
    return Int(statement.int(0))
  }

  /// The photos under the roots whose size another one there shares.
  func sameSized() throws(SQLiteError) -> [Member] {
    let (condition, parameters) = filter.rootCondition()
    let statement = try database.prepare(
      """
      WITH under AS (
        SELECT p.id, f.path, p.name, p.size, p.head_hash, p.content_hash, p.copy_of
        FROM photo p JOIN folder f ON f.id = p.folder WHERE \(condition) AND p.size > 0)
      SELECT * FROM under WHERE size IN (SELECT size FROM under GROUP BY size HAVING count(*) > 1)
      """)
    statement.bind(parameters)
    var members: [Member] = []
    while try statement.step() {
      members.append(
        Member(
          id: statement.int(0), path: PathBytes(statement.bytes(1)).appending(statement.bytes(2)),
          size: statement.int(3), head: statement.isNull(4) ? nil : statement.int(4),
          whole: statement.isNull(5) ? nil : statement.int(5), copyOf: statement.isNull(6) ? nil : statement.int(6)))
    }
    return members
  }

  /// Groups of two or more members (indices) with the same size and hash.
  private func groups(of members: [Member], among indices: [Int]? = nil, by hash: (Member) -> Int64?) -> [[Int]] {
    var byKey: [Key: [Int]] = [:]
    for index in indices ?? Array(members.indices) {
      guard let value = hash(members[index]) else { continue }
      byKey[Key(size: members[index].size, hash: value), default: []].append(index)
    }
    return byKey.values.filter { $0.count > 1 }
  }

  /// Reads a hash for the members that lack one, several at a time, and
  /// stores it as batches commit. A file that cannot be read keeps none.
  private func fill(
    _ members: inout [Member], among indices: [Int]? = nil, where lacks: (Member) -> Bool, column: String,
    keyPath: WritableKeyPath<Member, Int64?>, read: @escaping @Sendable (PathBytes) -> Int64?
  ) throws(SQLiteError) {
    let missing = (indices ?? Array(members.indices)).filter { lacks(members[$0]) }
    guard !missing.isEmpty else { return }
    let store = try database.prepare("UPDATE photo SET \(column) = ? WHERE id = ?")
    for start in stride(from: 0, to: missing.count, by: batchSize) {
      if isCancelled() { return }
      let batch = Array(missing[start..<min(start + batchSize, missing.count)])
      let paths = batch.map { members[$0].path }
      var hashes = [Int64?](repeating: nil, count: batch.count)
      hashes.withUnsafeMutableBufferPointer { results in
        let results = SharedBuffer(results)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
          results.buffer[index] = read(paths[index])
        }
      }
      try database.transaction { () throws(SQLiteError) in
        for (index, hash) in zip(batch, hashes) {
          members[index][keyPath: keyPath] = hash
          if let hash { try store.run([hash, members[index].id]) }
        }
      }
    }
  }

  /// The copy shown: the one in the first root, then first by path.
  private func shownFirst(_ a: Member, _ b: Member) -> Bool {
    let (rankA, rankB) = (rootRank(a.path), rootRank(b.path))
    if rankA != rankB { return rankA < rankB }
    return a.path.bytes.lexicographicallyPrecedes(b.path.bytes)
  }

  private func rootRank(_ path: PathBytes) -> Int { filter.rootIndex(of: path) ?? filter.roots.count }

  /// Writes the marks that changed: `wanted` for the copies found, and
  /// none for photos under the roots marked before that are no copy now
  /// (one of a pair deleted, or changed).
  private func apply(_ wanted: [Int64: (copyOf: Int64?, copies: Int)]) throws(SQLiteError) {
    let (condition, parameters) = filter.rootCondition()
    let marked = try database.prepare(
      """
      SELECT p.id, p.copy_of, p.copies FROM photo p JOIN folder f ON f.id = p.folder
      WHERE \(condition) AND (p.copy_of IS NOT NULL OR p.copies > 0)
      """)
    marked.bind(parameters)
    var current: [Int64: (copyOf: Int64?, copies: Int)] = [:]
    while try marked.step() {
      current[marked.int(0)] = (marked.isNull(1) ? nil : marked.int(1), Int(marked.int(2)))
    }
    let store = try database.prepare("UPDATE photo SET copy_of = ?, copies = ? WHERE id = ?")
    try database.transaction { () throws(SQLiteError) in
      for (id, mark) in wanted where current[id].map({ $0.copyOf != mark.copyOf || $0.copies != mark.copies }) ?? true {
        try store.run([mark.copyOf, mark.copies, id])
        changedMarks = true
      }
      for id in current.keys where wanted[id] == nil {
        try store.run([nil, 0, id])
        changedMarks = true
      }
    }
  }
}
