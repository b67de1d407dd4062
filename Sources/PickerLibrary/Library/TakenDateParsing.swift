#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads dates taken from what the headers and file names say, refusing the
/// impossible ones so that the next origin is tried.
public enum TakenDateParsing {
  /// Dates before photography (1826) or after `latest` are a camera's
  /// unset clock or a typo, not a capture time.
  static let earliestYear = 1826

  /// EXIF's "YYYY:MM:DD HH:MM:SS" (some writers use "-" or " " in the
  /// date), with SubSecTimeOriginal's digits and OffsetTimeOriginal's
  /// "+02:00". Nil for blanks, zeros and dates out of range.
  public static func exif(_ text: String, subSeconds: String = "", offset: String = "", latestDay: Int)
    -> TakenDate?
  {
    let digits = Array(text.utf8)
    guard digits.count >= 19 else { return nil }
    func number(_ at: Int, _ count: Int) -> Int? {
      var value = 0
      for byte in digits[at..<(at + count)] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2)
    else { return nil }
    let date = CivilDate(year: year, month: month, day: day)
    guard date.isValid, year >= earliestYear, date.dayNumber <= latestDay, hour < 24, minute < 60, second < 61
    else { return nil }
    return TakenDate(
      wallClock: TakenDate.wallClock(
        date, hour: hour, minute: minute, second: min(second, 59), millisecond: milliseconds(subSeconds)),
      offsetMinutes: offsetMinutes(offset), origin: .exif)
  }

  /// "5" is 500 ms, "12" 120 ms, "123456" 123 ms.
  static func milliseconds(_ subSeconds: String) -> Int {
    let digits = subSeconds.utf8.prefix { $0 >= 0x30 && $0 <= 0x39 }.prefix(3)
    guard !digits.isEmpty else { return 0 }
    var value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    for _ in digits.count..<3 { value *= 10 }
    return value
  }

  /// "+02:00" → 120, "-05:30" → -330; nil when absent or malformed.
  static func offsetMinutes(_ text: String) -> Int? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 6, bytes[0] == 0x2B || bytes[0] == 0x2D, bytes[3] == 0x3A,
      let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
      let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)), hours <= 14, minutes < 60
    else { return nil }
    return (bytes[0] == 0x2D ? -1 : 1) * (hours * 60 + minutes)
  }

  /// A date (and time) in a file name, as phones, cameras and messengers
  /// write them: IMG_20230614_101500, PXL_20230614_101500123,
  /// …_BURST20230614101500123, Screenshot_2023-06-14-10-15-00,
  /// "2023-06-14 10.15.00", IMG-20230614-WA0003 (a day only: midnight).
  public static func fileName(_ name: [UInt8], latestDay: Int) -> TakenDate? {
    var start = 0
    while start + 8 <= name.count {
      // A date starts where a longer number does not.
      if isDigit(name[start]), start == 0 || !isDigit(name[start - 1]),
        let found = dateAndTime(in: name, from: start, latestDay: latestDay)
      {
        return found
      }
      start += 1
    }
    return nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func dateAndTime(in name: [UInt8], from start: Int, latestDay: Int) -> TakenDate? {
    var at = start
    func digits(_ count: Int) -> Int? {
      guard at + count <= name.count else { return nil }
      var value = 0
      for byte in name[at..<(at + count)] {
        guard isDigit(byte) else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      at += count
      return value
    }
    func separator(_ allowed: String) -> UInt8? {
      guard at < name.count, allowed.utf8.contains(name[at]) else { return nil }
      at += 1
      return name[at - 1]
    }
    guard let year = digits(4) else { return nil }
    let dateSeparator = separator("-_.")
    guard let month = digits(2) else { return nil }
    if let dateSeparator, separator(String(UnicodeScalar(dateSeparator))) == nil { return nil }
    guard let day = digits(2) else { return nil }
    // The year range a file name is believed for: digital photos only, so
    // that a serial number is not read as a date.
    let date = CivilDate(year: year, month: month, day: day)
    guard (1990...2099).contains(year), date.isValid, date.dayNumber <= latestDay else { return nil }
    // A date run straight into more digits (20230614101500) is a time only
    // when the date had no separators either.
    if at < name.count, isDigit(name[at]), dateSeparator != nil { return nil }
    var hour = 0
    var minute = 0
    var second = 0
    var millisecond = 0
    var hasTime = false
    let afterDate = at
    _ = separator("_- T")
    if let h = digits(2) {
      let timeSeparator = separator(".-:_")
      if let m = digits(2), timeSeparator == nil || separator(String(UnicodeScalar(timeSeparator!))) != nil,
        let s = digits(2), h < 24, m < 60, s < 60
      {
        (hour, minute, second) = (h, m, s)
        hasTime = true
        if let ms = digits(3), at == name.count || !isDigit(name[at]) { millisecond = ms }
      } else {
        at = afterDate
      }
    }
    var taken = TakenDate(
      wallClock: TakenDate.wallClock(date, hour: hour, minute: minute, second: second, millisecond: millisecond),
      origin: .fileName)
    taken.isDayOnly = !hasTime
    return taken
  }

  /// XMP's ISO 8601: "2023-06-14T10:15:00.123+02:00" (Z for UTC), without
  /// seconds ("2023-06-14T10:15"), or a day alone ("2023-06-14": midnight).
  /// Some writers put EXIF's form there, which is read too.
  public static func xmp(_ text: String, latestDay: Int, origin: TakenDate.Origin = .xmp) -> TakenDate? {
    var bytes = Array(text.utf8)
    let isDayOnly = bytes.count == 10
    if isDayOnly { bytes += Array("T00:00:00".utf8) }
    if bytes.count >= 16, bytes.count < 19 || bytes[16] != 0x3A {
      bytes.insert(contentsOf: Array(":00".utf8), at: 16)
    }
    guard bytes.count >= 19, bytes[10] == 0x54 || bytes[10] == 0x20 else { return nil }
    var rest = bytes[19...]
    var subSeconds = ""
    if rest.first == 0x2E {
      let digits = rest.dropFirst().prefix { $0 >= 0x30 && $0 <= 0x39 }
      subSeconds = String(decoding: digits, as: UTF8.self)
      rest = rest.dropFirst(1 + digits.count)
    }
    let zone = String(decoding: rest, as: UTF8.self)
    guard
      var date = exif(
        String(decoding: bytes[0..<19], as: UTF8.self), subSeconds: subSeconds, offset: zone == "Z" ? "+00:00" : zone,
        latestDay: latestDay)
    else { return nil }
    date.origin = origin
    date.isDayOnly = isDayOnly
    return date
  }

  /// IPTC's DateCreated ("20230614") and TimeCreated ("101500+0200", or
  /// none: midnight).
  public static func iptc(date: String, time: String, latestDay: Int) -> TakenDate? {
    let d = Array(date.utf8)
    let t = Array(time.utf8)
    guard d.count == 8 else { return nil }
    var text =
      String(decoding: d[0..<4], as: UTF8.self) + ":" + String(decoding: d[4..<6], as: UTF8.self) + ":"
      + String(decoding: d[6..<8], as: UTF8.self)
    var offset = ""
    if t.count >= 6 {
      text += " " + [t[0..<2], t[2..<4], t[4..<6]].map { String(decoding: $0, as: UTF8.self) }.joined(separator: ":")
      if t.count == 11 {
        offset = String(decoding: t[6..<9], as: UTF8.self) + ":" + String(decoding: t[9..<11], as: UTF8.self)
      }
    } else {
      text += " 00:00:00"
    }
    guard var taken = exif(text, offset: offset, latestDay: latestDay) else { return nil }
    taken.origin = .iptc
    taken.isDayOnly = t.count < 6
    return taken
  }

  /// A moment in UTC seconds (Google Takeout's photoTakenTime), on this
  /// machine's wall clock as a file time is.
  public static func utcSeconds(_ seconds: Int64, latestDay: Int, origin: TakenDate.Origin) -> TakenDate? {
    // Past the year 9999 no calendar sum may run (a mutated movie header
    // held 2^63 seconds); those are no date, like a date after tomorrow.
    guard seconds > 0 && seconds < latestSeconds else { return nil }
    var taken = PhotoMetadataReader.fileTime(timespec(tv_sec: Int(seconds), tv_nsec: 0))
    taken.origin = origin
    guard taken.date.year >= earliestYear, taken.day <= latestDay, seconds != 0 else { return nil }
    return taken
  }

  /// 10000-01-01 in Unix seconds.
  static let latestSeconds: Int64 = 253_402_300_800

  /// The seconds from 1904 to 1970, QuickTime's epoch to Unix's.
  static let quickTimeEpoch: UInt64 = 2_082_844_800

  /// A video's date: Apple's creationdate ("2022-12-31T23:59:58+0900",
  /// the clip's own clock), else the movie header's creation time (UTC,
  /// put on the clock of where it was shot, `utcMoment`; 1904-01-01 and
  /// 1970-01-01 are unset clocks, no date), else ©day.
  /// A moment recorded in UTC (a movie header's), put on the clock where
  /// it was shot when the position is known (`LocalTime`), else on this
  /// machine's, saying which.
  public static func utcMoment(
    _ seconds: Int64, at position: (latitude: Double, longitude: Double)?, latestDay: Int, origin: TakenDate.Origin
  ) -> TakenDate? {
    guard seconds > 0 && seconds < latestSeconds else { return nil }
    guard let position,
      let (offset, source) = LocalTime.offset(
        latitude: position.latitude, longitude: position.longitude, utcSeconds: seconds)
    else {
      var taken = utcSeconds(seconds, latestDay: latestDay, origin: origin)
      taken?.zone = .thisMachine
      return taken
    }
    var taken = TakenDate(
      wallClock: (seconds + Int64(offset)) * 1000, offsetMinutes: offset / 60, origin: origin)
    taken.zone = source
    guard taken.date.year >= earliestYear, taken.day <= latestDay else { return nil }
    return taken
  }

  public static func video(
    appleCreationDate: String, createdSince1904: UInt64, day: String, latestDay: Int,
    position: (latitude: Double, longitude: Double)? = nil
  ) -> TakenDate? {
    var apple = Array(appleCreationDate.utf8)
    // "+0900" as "+09:00".
    if apple.count >= 24, apple[apple.count - 5] == 0x2B || apple[apple.count - 5] == 0x2D,
      !apple.suffix(4).contains(0x3A)
    {
      apple.insert(0x3A, at: apple.count - 2)
    }
    if let date = xmp(String(decoding: apple, as: UTF8.self), latestDay: latestDay, origin: .quicktime) {
      return date
    }
    if createdSince1904 > quickTimeEpoch,
      let date = utcMoment(
        Int64(clamping: createdSince1904 - quickTimeEpoch), at: position, latestDay: latestDay, origin: .quicktime)
    {
      return date
    }
    return xmp(day, latestDay: latestDay, origin: .quicktime)
  }
}
