/// When a photo was taken, by the clock where it was taken, and where that
/// came from.
public struct TakenDate: Hashable, Sendable, Comparable {
  /// Where the date was read, best first.
  public enum Origin: Int, Hashable, Sendable, CaseIterable {
    /// EXIF DateTimeOriginal (with SubSecTimeOriginal, OffsetTimeOriginal).
    case exif = 1
    /// A date in the file name (IMG_20230614_101500.jpg).
    case fileName = 2
    /// The file's modification time, in this machine's time zone.
    case fileTime = 3
    /// What a remote or command source listed (`taken_at`).
    case listing = 4
    /// The photo's own XMP (exif:DateTimeOriginal, photoshop:DateCreated,
    /// xmp:CreateDate), as Lightroom and Photo Mechanic export it.
    case xmp = 5
    /// An XMP file beside the photo (darktable's photo.jpg.xmp, Lightroom's
    /// and digiKam's photo.xmp).
    case xmpSidecar = 6
    /// IPTC DateCreated and TimeCreated.
    case iptc = 7
    /// Google Takeout's JSON beside the photo (photoTakenTime).
    case takeout = 8
    /// A video's own header: Apple's creationdate (local, with its offset),
    /// else the movie header's creation time (UTC) or ©day; Matroska's
    /// DateUTC; an AVI's IDIT or ICRD.
    case quicktime = 9

    public var label: String {
      switch self {
      case .exif: "EXIF"
      case .fileName: "file name"
      case .fileTime: "file time"
      case .listing: "the source's listing"
      case .xmp: "XMP"
      case .xmpSidecar: "XMP sidecar"
      case .iptc: "IPTC"
      case .takeout: "Google Takeout"
      case .quicktime: "video header"
      }
    }

    /// The origins a library file's date can have, in the order tried.
    public static let libraryOrder: [Origin] = [
      .exif, .quicktime, .xmp, .xmpSidecar, .iptc, .takeout, .fileName, .fileTime,
    ]
  }

  /// Milliseconds since 1970-01-01 00:00 on the photo's own wall clock: no
  /// zone is applied, so a photo taken at 10:15 in Tokyo shows 10:15, as
  /// phone galleries do.
  public var wallClock: Int64
  /// The zone's offset from UTC in minutes, when the camera recorded it.
  public var offsetMinutes: Int?
  public var origin: Origin
  /// Only the day is known (a messenger's file name, a date with no time):
  /// shown without the midnight it is stored at.
  public var isDayOnly = false
  /// For a moment recorded in UTC (a clip's movie header): whose clock it
  /// was put on. Nil for a date recorded on the camera's own clock.
  public var zone: LocalTime.Source?

  public init(wallClock: Int64, offsetMinutes: Int? = nil, origin: Origin) {
    self.wallClock = wallClock
    self.offsetMinutes = offsetMinutes
    self.origin = origin
  }

  public static func < (a: TakenDate, b: TakenDate) -> Bool { a.wallClock < b.wallClock }

  public static let millisecondsPerDay: Int64 = 86_400_000

  /// The day number (`CivilDate.dayNumber`) of the wall-clock date.
  public var day: Int {
    Int(wallClock >= 0 ? wallClock / Self.millisecondsPerDay : (wallClock + 1) / Self.millisecondsPerDay - 1)
  }

  public var date: CivilDate { CivilDate(dayNumber: day) }

  /// "2023-06-14 10:15:00", with ".123" when there are sub-seconds and the
  /// offset when known.
  public var label: String {
    if isDayOnly { return date.iso }
    let ms = Int(wallClock - Int64(day) * Self.millisecondsPerDay)
    let seconds = ms / 1000
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    var text = "\(date.iso) \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    if ms % 1000 != 0 { text += "." + String(String(1000 + ms % 1000).dropFirst()) }
    if let offsetMinutes {
      let sign = offsetMinutes < 0 ? "-" : "+"
      text += " \(sign)\(two(abs(offsetMinutes) / 60)):\(two(abs(offsetMinutes) % 60))"
    }
    return text
  }

  /// What the facts panel says after the date: its origin, whether only
  /// the day is known, and for a UTC moment, whose clock it is on:
  /// "QuickTime; UTC+09:00 from the position, Asia/Tokyo".
  public var originLabel: String {
    var text = (isDayOnly ? "day only, " : "") + origin.label
    switch zone {
    case .position(let name)?: text += "; \(utcOffsetLabel) from the position, \(name)"
    case .sea?: text += "; \(utcOffsetLabel) from the longitude (no town near)"
    case .thisMachine?: text += "; recorded in UTC, shown on this machine's clock"
    case .nearestPhoto?: text += "; recorded in UTC, \(utcOffsetLabel) as the photo nearest in time"
    case nil: break
    }
    return text
  }

  /// "UTC+09:00", "UTC-03:30", "UTC".
  var utcOffsetLabel: String {
    guard let minutes = offsetMinutes, minutes != 0 else { return "UTC" }
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "UTC\(minutes < 0 ? "-" : "+")\(two(abs(minutes) / 60)):\(two(abs(minutes) % 60))"
  }

  /// The wall-clock milliseconds of a date and time of day.
  public static func wallClock(_ date: CivilDate, hour: Int, minute: Int, second: Int, millisecond: Int = 0) -> Int64 {
    Int64(date.dayNumber) * millisecondsPerDay + Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
  }
}
