import CSQLite
import Synchronization

/// A failed SQLite call: its result code and message.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
  public var code: Int32
  public var message: String
  public var description: String { message }

  /// The file is not a database, or a damaged one: set it aside and rebuild.
  public var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}

/// A thin layer over the SQLite C API: one connection, prepared statements,
/// transactions. Not shared between threads (each user opens its own).
public final class SQLiteDatabase {
  let handle: OpaquePointer

  /// Opens (creating) the database at `path`; ":memory:" for one in memory.
  public init(path: String, readOnly: Bool = false) throws(SQLiteError) {
    var db: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(path, &db, flags, nil)
    guard status == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      throw SQLiteError(code: status, message: message)
    }
    handle = db
    // Another picker or `picker-tui index` may be writing: wait for it.
    sqlite3_busy_timeout(db, 10_000)
    stopWhenCancelled()
  }

  /// A query run by a task that was cancelled stops (SQLITE_INTERRUPT):
  /// search as you type cancels the last key's query when the next comes.
  private func stopWhenCancelled() {
    sqlite3_progress_handler(handle, Self.stopCheckSteps, { _ in SQLiteDatabase.taskIsCancelled ? 1 : 0 }, nil)
  }

  /// How many of SQLite's steps run between two looks at whether to stop.
  private static let stopCheckSteps: Int32 = 2_000

  private static var taskIsCancelled: Bool { withUnsafeCurrentTask { $0?.isCancelled == true } }

  /// Runs `body` with its queries stopping (SQLITE_INTERRUPT) also once
  /// `stop` is raised, from any thread: a query on a thread without a
  /// task, which cannot see the task that asked for it being cancelled,
  /// is stopped by whoever can.
  func stopping<T>(when stop: QueryStop, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    sqlite3_progress_handler(
      handle, Self.stopCheckSteps,
      { context in
        let stop = context.map { Unmanaged<QueryStop>.fromOpaque($0).takeUnretainedValue() }
        return stop?.isRaised == true || SQLiteDatabase.taskIsCancelled ? 1 : 0
      }, Unmanaged.passUnretained(stop).toOpaque())
    defer {
      stopWhenCancelled()
      withExtendedLifetime(stop) {}
    }
    return try body()
  }

  /// The query was stopped because its task was cancelled.
  public static func isInterruption(_ error: SQLiteError) -> Bool { error.code == SQLITE_INTERRUPT }

  deinit { sqlite3_close_v2(handle) }

  func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
  }

  /// Runs statements that return no rows.
  public func execute(_ sql: String) throws(SQLiteError) {
    let status = sqlite3_exec(handle, sql, nil, nil, nil)
    guard status == SQLITE_OK else { throw error(status) }
  }

  public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard status == SQLITE_OK, let statement else { throw error(status) }
    return SQLiteStatement(statement, database: self)
  }

  /// Runs `body` in one write transaction, rolled back if it throws.
  public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try inTransaction("BEGIN IMMEDIATE", body)
  }

  /// Runs `body` as one read: the statements in it see one state of the
  /// file and take its lock once, not once each (many small lookups).
  public func reading<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try inTransaction("BEGIN", body)
  }

  private func inTransaction<T>(_ begin: String, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try execute(begin)
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  public var changes: Int { Int(sqlite3_changes(handle)) }
  public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}

/// A stop for queries on other threads (`SQLiteDatabase.stopping`):
/// raised once, it stays raised.
final class QueryStop: Sendable {
  private let raised = Atomic(false)

  func raise() { raised.store(true, ordering: .relaxed) }
  var isRaised: Bool { raised.load(ordering: .relaxed) }
}

/// A prepared statement: bind, step, read columns, reset.
public final class SQLiteStatement {
  let handle: OpaquePointer
  let database: SQLiteDatabase

  init(_ handle: OpaquePointer, database: SQLiteDatabase) {
    self.handle = handle
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  /// SQLite copies the bytes (the destructor value -1, SQLITE_TRANSIENT).
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// Binds parameters from 1 on: Int, Int64, Double, String, [UInt8] (a
  /// blob) or nil.
  @discardableResult
  public func bind(_ values: [Any?]) -> SQLiteStatement {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case let number as Int: sqlite3_bind_int64(handle, index, Int64(number))
      case let number as Int64: sqlite3_bind_int64(handle, index, number)
      case let number as Int32: sqlite3_bind_int64(handle, index, Int64(number))
      case let number as Double: sqlite3_bind_double(handle, index, number)
      case let text as String: sqlite3_bind_text(handle, index, text, -1, Self.transient)
      case let bytes as [UInt8]:
        bytes.withUnsafeBytes { raw in
          // A zero-length blob still needs a non-null pointer to be a blob.
          _ = sqlite3_bind_blob(
            handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), Self.transient)
        }
      default: sqlite3_bind_null(handle, index)
      }
    }
    return self
  }

  /// Binds integers from 1 on, the statement reset: ids by the hundred,
  /// without `bind`'s casts of each.
  public func bind(ids: [Int64]) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, id) in ids.enumerated() { sqlite3_bind_int64(handle, Int32(offset + 1), id) }
  }

  /// The next row: true while there is one.
  public func step() throws(SQLiteError) -> Bool {
    let status = sqlite3_step(handle)
    if status == SQLITE_ROW { return true }
    sqlite3_reset(handle)
    guard status == SQLITE_DONE else { throw database.error(status) }
    return false
  }

  /// Runs a statement that returns no rows.
  public func run(_ values: [Any?] = []) throws(SQLiteError) {
    bind(values)
    while try step() {}
  }

  public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
  public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  public func text(_ column: Int32) -> String? {
    guard let pointer = sqlite3_column_text(handle, column) else { return nil }
    return String(cString: pointer)
  }

  /// The column's bytes, lent for the length of `body` (no copy).
  public func withBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer = sqlite3_column_blob(handle, column) else {
      return body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return body(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  public func bytes(_ column: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }
}
