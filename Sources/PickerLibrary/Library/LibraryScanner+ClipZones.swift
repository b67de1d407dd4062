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
      var id: Int64, folder: Int64, utc: Int64, offset: Int64, zone: Int64, make: String?, model: String?
    }
    var found: [Clip] = []
    while try clips.step() {
      found.append(
        Clip(
          id: clips.int(0), folder: clips.int(1), utc: clips.int(2) - clips.int(3) * 60_000, offset: clips.int(3),
          zone: clips.int(4),
          make: clips.text(5), model: clips.text(6)))
    }
    guard !found.isEmpty else { return }
    // The lenders: photos on their own clock with their offset, and clips
    // put on the clock of their position; read once per folder (and per
    // camera, for clips whose folder has none), as UTC moments in order.
    // One query per clip, over the date index, cost a first index of
    // 30,000 files with 9,000 clips a fifth more time.
    let lenders = "offset IS NOT NULL AND (zone IS NULL OR zone IN (1, 2))"
    let ofFolder = try database.prepare(
      "SELECT taken - offset * 60000, offset FROM photo WHERE folder = ? AND \(lenders)")
    let ofCamera = try database.prepare(
      "SELECT taken - offset * 60000, offset FROM photo WHERE make = ? AND model = ? AND \(lenders)")
    func moments(_ statement: SQLiteStatement, _ values: [Any?]) throws(SQLiteError) -> [(utc: Int64, offset: Int64)] {
      statement.bind(values)
      var found: [(utc: Int64, offset: Int64)] = []
      while try statement.step() { found.append((statement.int(0), statement.int(1))) }
      return found.sorted { $0.utc < $1.utc }
    }
    var offsets: [Int64: Int64] = [:]
    for (folder, clips) in Dictionary(grouping: found, by: \.folder) {
      let lent = try moments(ofFolder, [folder])
      for clip in clips { offsets[clip.id] = Self.nearest(in: lent, to: clip.utc) }
    }
    let unplaced = found.filter { offsets[$0.id] == nil && $0.make != nil && $0.model != nil }
    for (camera, clips) in Dictionary(grouping: unplaced, by: { [$0.make!, $0.model!] }) {
      let lent = try moments(ofCamera, [camera[0], camera[1]])
      for clip in clips { offsets[clip.id] = Self.nearest(in: lent, to: clip.utc) }
    }
    let place = try database.prepare("UPDATE photo SET taken = ?, offset = ?, zone = ? WHERE id = ?")
    let nearestCode = Int64(LocalTime.Source.nearestPhoto.code)
    try database.transaction { () throws(SQLiteError) in
      for clip in found {
        if let offset = offsets[clip.id] {
          guard clip.zone != nearestCode || clip.offset != offset else { continue }
          try place.run([clip.utc + offset * 60_000, offset, nearestCode, clip.id])
        } else if clip.zone == nearestCode {
          // The photo that lent its offset went: back on this machine's clock,
          // as the header reader puts a UTC moment without a position.
          let local = PhotoMetadataReader.fileTime(
            timespec(tv_sec: Int(clip.utc / 1000), tv_nsec: Int(clip.utc % 1000) * 1_000_000))
          try place.run([
            local.wallClock, local.offsetMinutes.map { Int64($0) }, Int64(LocalTime.Source.thisMachine.code), clip.id,
          ])
        }
      }
    }
  }

  /// The offset of the moment nearest `utc` among `lent` (in order), when
  /// within the window.
  static func nearest(in lent: [(utc: Int64, offset: Int64)], to utc: Int64) -> Int64? {
    var low = 0
    var high = lent.count
    while low < high {
      let middle = (low + high) / 2
      if lent[middle].utc < utc { low = middle + 1 } else { high = middle }
    }
    let candidates = [low - 1, low].filter { lent.indices.contains($0) }
    guard let best = candidates.min(by: { abs(lent[$0].utc - utc) < abs(lent[$1].utc - utc) }),
      abs(lent[best].utc - utc) <= nearestPhotoWindow
    else { return nil }
    return lent[best].offset
  }
}
