/// A calendar day with no time zone, as a photo's clock recorded it.
///
/// Days are numbered from 1970-01-01 (day 0) in the proleptic Gregorian
/// calendar, so a day is one integer to compare, group and jump by.
public struct CivilDate: Hashable, Sendable, Comparable {
  public var year: Int
  public var month: Int
  public var day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  public static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

  public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  static let weekdayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // day 0 was a Thursday

  public var isValid: Bool {
    (1...12).contains(month) && day >= 1 && day <= Self.days(inMonth: month, of: year)
  }

  static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  public static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 (negative before it). The era arithmetic keeps
  /// it exact for any year without a table: 400 Gregorian years are
  /// exactly 146,097 days.
  public var dayNumber: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9  // March is 0
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day number (the inverse of `dayNumber`).
  public init(dayNumber: Int) {
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// "Sat 14 Jun 2025": the day header's words (English, as the design says).
  public var label: String {
    let weekday = Self.weekdayNames[((dayNumber % 7) + 7) % 7]
    return "\(weekday) \(day) \(Self.monthNames[month - 1]) \(year)"
  }

  /// "14 Jun 2025": the label without its weekday.
  public var dayMonthYear: String { "\(day) \(Self.monthNames[month - 1]) \(year)" }

  /// "14 Jun": the shortest label a day header takes.
  public var dayMonth: String { "\(day) \(Self.monthNames[month - 1])" }

  /// Months since year 0: consecutive months differ by one.
  public var monthNumber: Int { year * 12 + month - 1 }

  /// "2023-06-14".
  public var iso: String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))"
  }
}
