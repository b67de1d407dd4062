import CImaging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files beside a photo that may date it (`Sidecars`).
public struct SidecarPaths: Hashable, Sendable {
  public var xmp: PathBytes?
  /// The XMP sidecar's mtime (ns): when the photo holds another rating, the
  /// newer file's wins.
  public var xmpModified: Int64?
  public var takeout: PathBytes?
  /// A Live Photo's MOV: it dates nothing, but the index keeps the pair.
  public var liveVideo: PathBytes?

  public init(xmp: PathBytes? = nil, takeout: PathBytes? = nil) {
    self.xmp = xmp
    self.takeout = takeout
  }
}

/// Reads a photo's metadata from its header bytes only (no pixels), and
/// chooses its date taken, the first believable of: EXIF DateTimeOriginal
/// (the Exif IFD's, then IFD0's), the photo's XMP, an XMP sidecar, IPTC, a
/// Google Takeout JSON, a date in the file name, the file's modification
/// time. Sidecars are read only when the photo itself gave no date.
public enum PhotoMetadataReader {
  /// `modified` is the file's mtime (seconds and nanoseconds) from the
  /// stat the scan already made; `latestDay` bounds believable dates.
  public static func read(
    path: PathBytes, name: [UInt8], modified: timespec, latestDay: Int, sidecars: SidecarPaths = SidecarPaths()
  ) -> PhotoMetadata {
    var header = pk_photo_header()
    let readable = (path.bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { pk_read_photo_header($0.baseAddress!, &header) == 0 }
    }
    return metadata(
      from: readable ? header : nil, name: name, modified: modified, latestDay: latestDay, sidecars: sidecars)
  }

  static func metadata(
    from header: pk_photo_header?, name: [UInt8], modified: timespec, latestDay: Int,
    sidecars: SidecarPaths = SidecarPaths()
  ) -> PhotoMetadata {
    var result = PhotoMetadata(taken: fileTime(modified))
    // Read once: it may date the photo and place it.
    let takeout = sidecars.takeout.map(SidecarDates.takeoutRecord)
    // Read once: it may date the photo and rate it.
    let sidecarXMP = sidecars.xmp.flatMap(SidecarDates.contents)
    // Every origin in its order, each read only when those before it gave
    // nothing believable; a date ahead of the clock is kept as refused.
    let unbounded = Int.max / 4
    var candidates: [() -> TakenDate?] = []
    if var header {
      let subSeconds = PhotoMetadata.text(&header.subsec_original)
      let offset = PhotoMetadata.text(&header.offset_original)
      let (original, ifd0, xmp) = (
        PhotoMetadata.text(&header.date_original), PhotoMetadata.text(&header.date_original_ifd0),
        PhotoMetadata.text(&header.xmp_date)
      )
      let (iptcDate, iptcTime) = (PhotoMetadata.text(&header.iptc_date), PhotoMetadata.text(&header.iptc_time))
      if header.is_video != 0 {
        let (apple, day, created) = (
          PhotoMetadata.text(&header.apple_creation_date), PhotoMetadata.text(&header.quicktime_day),
          header.created_since_1904
        )
        let position = header.has_gps != 0 ? (latitude: header.latitude, longitude: header.longitude) : nil
        candidates.append {
          TakenDateParsing.video(
            appleCreationDate: apple, createdSince1904: created, day: day, latestDay: unbounded, position: position)
        }
      }
      let isVideo = header.is_video != 0
      candidates += [
        {
          // An AVI's IDIT arrives in EXIF's form; it is still the video's
          // own header that said it.
          var date = TakenDateParsing.exif(original, subSeconds: subSeconds, offset: offset, latestDay: unbounded)
          if isVideo { date?.origin = .quicktime }
          return date
        },
        { TakenDateParsing.exif(ifd0, offset: offset, latestDay: unbounded) },
        {
          // A day alone (Photo Mechanic's photoshop:DateCreated) yields to
          // IPTC's date and time of the same day.
          guard let date = TakenDateParsing.xmp(xmp, latestDay: unbounded) else { return nil }
          if date.isDayOnly, let iptc = TakenDateParsing.iptc(date: iptcDate, time: iptcTime, latestDay: unbounded),
            !iptc.isDayOnly, iptc.day == date.day
          {
            return iptc
          }
          return date
        },
        { sidecarXMP.flatMap { SidecarDates.xmp($0, latestDay: unbounded) } },
        { TakenDateParsing.iptc(date: iptcDate, time: iptcTime, latestDay: unbounded) },
      ]
      result.take(header)
    } else {
      candidates.append { sidecarXMP.flatMap { SidecarDates.xmp($0, latestDay: unbounded) } }
    }
    candidates += [
      {
        takeout?.date(latestDay: unbounded, at: result.latitude.flatMap { lat in result.longitude.map { (lat, $0) } })
      },
      { TakenDateParsing.fileName(name, latestDay: unbounded) },
    ]
    for candidate in candidates {
      guard let date = candidate() else { continue }
      if date.day <= latestDay {
        result.taken = date
        break
      }
      if result.refused == nil { result.refused = date }
    }
    let photoModified = Int64(modified.tv_sec) &* 1_000_000_000 &+ Int64(modified.tv_nsec)
    (result.culling, result.cullingOrigin) = XMPCulling.chosen(
      embedded: header.flatMap { XMPVerdict.embedded($0.culling) },
      sidecar: sidecarXMP.flatMap(XMPCulling.verdict), photoModified: photoModified,
      sidecarModified: sidecars.xmpModified)
    // A photo with no position of its own takes Takeout's.
    if result.latitude == nil, let position = takeout?.position {
      result.latitude = position.latitude
      result.longitude = position.longitude
    }
    result.isVideo = header?.is_video ?? 0 != 0 || PhotoFileTypes.isVideo(name: name)
    if result.burstID == nil && !result.isVideo {
      result.burstID = BurstName.id(fromFileName: String(decoding: name, as: UTF8.self))
    }
    return result
  }

  /// The file's mtime on this machine's wall clock, with its offset.
  static func fileTime(_ modified: timespec) -> TakenDate {
    // A time past the year 9999 (a file system's or a header's nonsense)
    // is read as the epoch: no calendar sum may overflow on it.
    let inRange = Int64(modified.tv_sec).magnitude < TakenDateParsing.latestSeconds.magnitude
    var seconds = inRange ? modified.tv_sec : 0
    var local = tm()
    if localtime_r(&seconds, &local) == nil { local = tm() }
    let date = CivilDate(local)
    let wallClock = TakenDate.wallClock(
      date, hour: Int(local.tm_hour), minute: Int(local.tm_min), second: Int(local.tm_sec),
      millisecond: Int(modified.tv_nsec / 1_000_000))
    return TakenDate(wallClock: wallClock, offsetMinutes: Int(local.tm_gmtoff / 60), origin: .fileTime)
  }

  /// The day number of today plus one (a camera in a zone ahead of ours),
  /// the last day a photo can believably have been taken.
  public static func latestBelievableDay() -> Int {
    var now = time(nil)
    var local = tm()
    localtime_r(&now, &local)
    return CivilDate(local).dayNumber + 1
  }
}

extension CivilDate {
  /// The date of a broken-down local time (`localtime_r`'s).
  init(_ local: tm) {
    self.init(year: Int(local.tm_year) + 1900, month: Int(local.tm_mon) + 1, day: Int(local.tm_mday))
  }
}
