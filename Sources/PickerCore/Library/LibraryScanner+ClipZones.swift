import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LibraryScanner {
  /// How far in time a photo may be from a clip to lend it its offset:
  /// a trip's photos and clips are hours apart, not weeks.
  static let nearestPhotoWindow: Int64 = 3 * 86_400_000

  /// The widest offset from UTC (+14:00): the stored wall clocks of photos
  /// around a moment lie this far on either side of it.
  static let widestOffset: Int64 = 14 * 3_600_000

  /// Clips whose header holds only UTC and no position (an Android phone
  /// with location off, an action cam) are put on the clock of the photo
  /// nearest in time that knows its offset: of the same folder, else of
  /// the same camera. Without one they stay on this machine's clock. Run
  /// after a scan that changed something, from what the index holds,
  /// without reading a file; a clip placed earlier is placed again, since
  /// a photo added beside it may be nearer.
  func placeClipsByNearestPhotos() throws(SQLiteError) {
    let (condition, parameters) = filter.rootCondition()
    let clips = try database.prepare(
      """
      SELECT p.id, p.folder, p.taken, p.offset, p.zone, p.make, p.model FROM photo p JOIN folder f ON f.id = p.folder
      WHERE \(condition) AND p.zone IN (\(LocalTime.Source.thisMachine.code), \(LocalTime.Source.nearestPhoto.code))
        AND p.offset IS NOT NULL
      """)
    clips.bind(parameters)
    struct Clip {
      var id: Int64, folder: Int64, utc: Int64, zone: Int64, make: String?, model: String?
    }
    var found: [Clip] = []
    while try clips.step() {
      found.append(
        Clip(
          id: clips.int(0), folder: clips.int(1), utc: clips.int(2) - clips.int(3) * 60_000, zone: clips.int(4),
          make: clips.text(5), model: clips.text(6)))
    }
    guard !found.isEmpty else { return }
    // A photo on its own clock with its offset, or a clip put on the clock
    // of its position; the stored wall clocks are searched a day wider
    // than the window (photo_taken's index), the UTC moments compared.
    let lenders = "offset IS NOT NULL AND (zone IS NULL OR zone IN (1, 2)) AND taken BETWEEN ? AND ?"
    let nearest = "ORDER BY abs(taken - offset * 60000 - ?) LIMIT 1"
    let inFolder = try database.prepare(
      "SELECT offset, taken - offset * 60000 FROM photo WHERE \(lenders) AND folder = ? \(nearest)")
    let ofCamera = try database.prepare(
      "SELECT offset, taken - offset * 60000 FROM photo WHERE \(lenders) AND make = ? AND model = ? \(nearest)")
    let place = try database.prepare("UPDATE photo SET taken = ?, offset = ?, zone = ? WHERE id = ?")
    try database.transaction { () throws(SQLiteError) in
      for clip in found {
        let range: [Any?] = [
          clip.utc - Self.nearestPhotoWindow - Self.widestOffset,
          clip.utc + Self.nearestPhotoWindow + Self.widestOffset,
        ]
        var offset = try Self.nearestOffset(inFolder, range + [clip.folder, clip.utc], to: clip.utc)
        if offset == nil, let make = clip.make, let model = clip.model {
          offset = try Self.nearestOffset(ofCamera, range + [make, model, clip.utc], to: clip.utc)
        }
        if let offset {
          try place.run([clip.utc + offset * 60_000, offset, Int64(LocalTime.Source.nearestPhoto.code), clip.id])
        } else if clip.zone == Int64(LocalTime.Source.nearestPhoto.code) {
          // The photo that lent its offset went: back on this machine's clock.
          let local = Self.machineOffsetMinutes(atUTC: clip.utc)
          try place.run([clip.utc + local * 60_000, local, Int64(LocalTime.Source.thisMachine.code), clip.id])
        }
      }
    }
  }

  /// The offset in minutes of the row `statement` finds, when its moment
  /// is within the window of `utc`.
  private static func nearestOffset(_ statement: SQLiteStatement, _ values: [Any?], to utc: Int64) throws(SQLiteError)
    -> Int64?
  {
    statement.bind(values)
    defer { statement.bind([]) }
    guard try statement.step(), abs(statement.int(1) - utc) <= nearestPhotoWindow else { return nil }
    return statement.int(0)
  }

  /// This machine's offset from UTC at a moment, in minutes.
  static func machineOffsetMinutes(atUTC milliseconds: Int64) -> Int64 {
    var seconds = time_t(milliseconds / 1000)
    var local = tm()
    guard localtime_r(&seconds, &local) != nil else { return 0 }
    return Int64(local.tm_gmtoff / 60)
  }
}
