import Foundation
import Testing

@testable import PickerLibrary

/// Big reads by id run in two halves at once (`LibraryIndex.inHalves`),
/// the second on a thread without the asking task: a half that fails or is
/// cancelled stops the other at once, and the error said is the one that
/// stopped the read.
@Suite struct ReadsInHalvesTests {
  /// Counts to `limit` in SQLite's own steps: many thousand of them, so
  /// the check for a stop is made along the way.
  static func count(to limit: Int, on database: SQLiteDatabase) throws(SQLiteError) -> Int64 {
    let statement = try database.prepare(
      "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?) SELECT count(*) FROM n")
    statement.bind([limit])
    _ = try statement.step()
    return statement.int(0)
  }

  /// Long enough that a half left to finish it would take minutes.
  static let aBillion = 1_000_000_000
  static let ids = (1...4_000).map(Int64.init)

  static func withIndex<T>(_ body: (LibraryIndex) throws -> T) throws -> T {
    let folder = NSTemporaryDirectory() + "halves-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(LibraryIndex(path: folder + "/library.sqlite"))
  }

  /// What the second half's long count ended with, and what the read threw.
  static func readWhile(
    _ firstHalf: (SQLiteDatabase) throws(SQLiteError) -> Void, on index: LibraryIndex
  ) -> (secondHalf: SQLiteError?, thrown: SQLiteError?) {
    var secondHalf: SQLiteError?
    do throws(SQLiteError) {
      _ = try index.inHalves(of: Self.ids) {
        (positions, database, _: inout LibraryIndex.HalfOutput<Int>) throws(SQLiteError) in
        guard positions.lowerBound > 0 else { return try firstHalf(database) }
        do throws(SQLiteError) {
          _ = try Self.count(to: Self.aBillion, on: database)
        } catch {
          secondHalf = error
          throw error
        }
      }
      return (secondHalf, nil)
    } catch {
      return (secondHalf, error)
    }
  }

  @Test func aHalfThatFailsStopsTheOtherAndItsOwnErrorIsSaid() throws {
    try Self.withIndex { index in
      let diskGone = SQLiteError(code: 10, message: "disk I/O error")
      let (secondHalf, thrown) = Self.readWhile({ _ throws(SQLiteError) in throw diskGone }, on: index)
      #expect(secondHalf.map(SQLiteDatabase.isInterruption) == true)
      #expect(thrown == diskGone)

      // Both connections answer the next read whole: the stop was for that
      // read only.
      let again = try index.inHalves(of: Self.ids) {
        (positions, database, output: inout LibraryIndex.HalfOutput<Int64>) throws(SQLiteError) in
        _ = try Self.count(to: 100_000, on: database)
        for position in positions { output.append(Self.ids[position]) }
      }
      #expect(again == Self.ids)
    }
  }

  @Test func aCancelledReadStopsTheHalfOffTheTasksThreadToo() async throws {
    let (secondHalf, thrown) = try await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try Self.withIndex { index in
        Self.readWhile(
          { database throws(SQLiteError) in _ = try Self.count(to: Self.aBillion, on: database) }, on: index)
      }
    }.value
    #expect(secondHalf.map(SQLiteDatabase.isInterruption) == true)
    #expect(thrown.map(SQLiteDatabase.isInterruption) == true)
  }
}
