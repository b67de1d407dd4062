import CImaging
import Foundation

/// Reads a local photo's facts (the header reader's, nothing decoded).
public enum FactsReader {
  /// `placed`: the date to say instead of the file's own, when the index
  /// put it on a clock the file alone does not tell (a clip placed by the
  /// photo nearest in time).
  public static func read(_ path: PathBytes, name: String, placed: TakenDate? = nil) -> PhotoFacts {
    var facts = readFile(path, name: name)
    if let placed, facts.error == nil { facts.dateTaken = "\(placed.label) (\(placed.originLabel))" }
    return facts
  }

  private static func readFile(_ path: PathBytes, name: String) -> PhotoFacts {
    var raw = pk_facts()
    let status = (path.bytes + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { pk_read_facts($0.baseAddress, &raw) }
    }
    var facts = PhotoFacts(name: name)
    guard status == 0 else {
      facts.error = PhotoMetadata.text(&raw.error)
      return facts
    }
    facts.fileSize = raw.file_size
    facts.format = ImageFormat(raw.format).map(Self.formatName)
    facts.metadata.take(raw.header)
    let chosen = dateTaken(path, header: raw.header_read != 0 ? raw.header : nil)
    facts.dateTaken = chosen?.label
    // The verdict too is chosen with the sidecars, as the index does.
    if let metadata = chosen?.metadata {
      (facts.metadata.culling, facts.metadata.cullingOrigin) = (metadata.culling, metadata.cullingOrigin)
    }
    if let latitude = facts.metadata.latitude, let longitude = facts.metadata.longitude {
      let place = PlaceData.namer?.place(latitude: latitude, longitude: longitude)
      facts.place = place?.label
      facts.placeName = place.map { $0.city ?? $0.country }
    }
    return facts
  }

  /// "2024-07-01 18:30:00 (EXIF)": the date the timeline orders by, and
  /// where it came from (EXIF, XMP, a sidecar, the file name, the file
  /// time...), chosen as the index chooses it, sidecars included: from
  /// `header` when the header reader gave it, else read as the index reads
  /// it (a RAW's facts are LibRaw's, its date the index's).
  static func dateTaken(_ path: PathBytes, header: pk_photo_header? = nil) -> (
    label: String, metadata: PhotoMetadata
  )? {
    guard let info = DirectoryReader.status(path) else { return nil }
    let name = path.bytes.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? path.bytes
    let parent = Array(path.bytes.dropLast(name.count + 1))
    let folder = PathBytes(parent.isEmpty ? [UInt8(ascii: "/")] : parent)
    var sidecars = SidecarPaths()
    if let entries = try? DirectoryReader.readAll(folder) {
      let found = Sidecars(names: entries.filter { !$0.isFolder }.map(\.name)).sidecars(of: name)
      if !found.isEmpty { sidecars = LibraryScanner.sidecars(found, in: folder).0 }
    }
    let (modified, latestDay) = (LibraryScanner.modified(info), PhotoMetadataReader.latestBelievableDay())
    let metadata =
      header.map {
        PhotoMetadataReader.metadata(
          from: $0, name: name, modified: modified, latestDay: latestDay, sidecars: sidecars)
      }
      ?? PhotoMetadataReader.read(
        path: path, name: name, modified: modified, latestDay: latestDay, sidecars: sidecars)
    let taken = metadata.taken
    var origin = taken.originLabel
    // A camera's clock with no offset, at a known position: its offset
    // there and then, from the position's zone (shown, never stored).
    if taken.offsetMinutes == nil, taken.zone == nil, !taken.isDayOnly, taken.origin != .fileTime,
      let latitude = metadata.latitude, let longitude = metadata.longitude,
      let zone = positionOffset(of: taken, latitude: latitude, longitude: longitude)
    {
      origin += "; \(zone)"
    }
    return ("\(taken.label) (\(origin))", metadata)
  }

  /// "UTC+09:00 at the position, Asia/Tokyo" for a wall-clock time there.
  static func positionOffset(of taken: TakenDate, latitude: Double, longitude: Double) -> String? {
    let wallSeconds = taken.wallClock / 1000
    // The position's zone, looked up once; then the wall clock less the
    // offset is UTC, and one correction settles it (it moves only across a
    // change of the zone's offset).
    guard let first = LocalTime.offset(latitude: latitude, longitude: longitude, utcSeconds: wallSeconds),
      case .position(let zone) = first.source, let rules = ZoneRules.named(zone)
    else { return nil }
    let settled = rules.secondsFromGMT(
      for: Date(timeIntervalSince1970: TimeInterval(wallSeconds - Int64(first.seconds))))
    var shown = taken
    shown.offsetMinutes = settled / 60
    return "\(shown.utcOffsetLabel) at the position, \(zone)"
  }

  static func formatName(_ format: ImageFormat) -> String {
    switch format {
    case .jpeg: return "JPEG"
    case .png: return "PNG"
    case .webp: return "WebP"
    case .gif: return "GIF"
    case .heif: return "HEIF/AVIF"
    case .tiff: return "TIFF"
    case .jxl: return "JPEG XL"
    case .raw: return "camera RAW"
    case .bmp: return "BMP"
    case .video: return "video"
    }
  }
}
