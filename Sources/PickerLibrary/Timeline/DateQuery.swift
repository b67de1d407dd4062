import Foundation

/// Dates as people type them: `2023`, `2023-06`, `2023-06-14`, `jun 2023`,
/// `14 jun 2023`, `today`, `yesterday`, and ranges `A..B`. Each is a span
/// of days (a year is all of its days).
public enum DateQuery {
  static let months: [String: Int] = {
    var table: [String: Int] = [:]
    let full = [
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
      "december",
    ]
    for (index, name) in full.enumerated() {
      table[name] = index + 1
      table[String(name.prefix(3))] = index + 1
    }
    table["sept"] = 9
    return table
  }()

  /// The days `text` names, or nil when it names none. `today` is the
  /// day number of today.
  public static func parse(_ text: String, today: Int) -> ClosedRange<Int>? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let dots = trimmed.range(of: "..") {
      let from = String(trimmed[..<dots.lowerBound])
      let to = String(trimmed[dots.upperBound...])
      // An open end: "2023-06.." is from then on, "..2020" up to then.
      let first = from.isEmpty ? Int.min / 2 : parse(from, today: today)?.lowerBound
      let last = to.isEmpty ? Int.max / 2 : parse(to, today: today)?.upperBound
      guard let first, let last, first <= last else { return nil }
      return first...last
    }
    switch trimmed {
    case "today": return today...today
    case "yesterday": return (today - 1)...(today - 1)
    default: break
    }
    let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    if words.count == 1 { return numeric(words[0]) }
    // "jun 2023", "june 2023", "14 jun 2023", "jun 14 2023".
    var day: Int?
    var month: Int?
    var year: Int?
    for word in words {
      if let m = months[word] {
        guard month == nil else { return nil }
        month = m
      } else if let n = Int(word), word.count == 4 {
        guard year == nil else { return nil }
        year = n
      } else if let n = Int(word), word.count <= 2 {
        guard day == nil else { return nil }
        day = n
      } else {
        return nil
      }
    }
    guard let year, let month else { return nil }
    if let day {
      let date = CivilDate(year: year, month: month, day: day)
      return date.isValid ? date.dayNumber...date.dayNumber : nil
    }
    return monthSpan(year: year, month: month)
  }

  /// `2023`, `2023-06`, `2023-06-14` (also with `/` or `.`).
  static func numeric(_ word: String) -> ClosedRange<Int>? {
    let parts = word.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "." }).map(String.init)
    guard !parts.isEmpty, parts.count <= 3, parts[0].count == 4, parts.allSatisfy({ Int($0) != nil }) else {
      return nil
    }
    let numbers = parts.map { Int($0)! }
    let year = numbers[0]
    guard (1000...9999).contains(year) else { return nil }
    switch numbers.count {
    case 1:
      return CivilDate(year: year, month: 1, day: 1).dayNumber...CivilDate(year: year, month: 12, day: 31).dayNumber
    case 2:
      return monthSpan(year: year, month: numbers[1])
    default:
      let date = CivilDate(year: year, month: numbers[1], day: numbers[2])
      return date.isValid ? date.dayNumber...date.dayNumber : nil
    }
  }

  static func monthSpan(year: Int, month: Int) -> ClosedRange<Int>? {
    guard (1...12).contains(month) else { return nil }
    let first = CivilDate(year: year, month: month, day: 1).dayNumber
    return first...(first + CivilDate.days(inMonth: month, of: year) - 1)
  }

  /// A search: the words to match and the dates it names, if any (a date
  /// anywhere in it: "x-t4 2023", "jun 2023 beach").
  public static func parseSearch(_ query: String, today: Int) -> (words: [String], days: ClosedRange<Int>?) {
    if let days = parse(query, today: today) { return ([], days) }
    var words = query.lowercased().split(separator: " ").map(String.init)
    var days: ClosedRange<Int>?
    var index = 0
    while index < words.count {
      // A month name with the year next to it is one date.
      if index + 1 < words.count, let span = parse(words[index] + " " + words[index + 1], today: today) {
        days = intersect(days, span)
        words.removeSubrange(index...(index + 1))
      } else if let span = parse(words[index], today: today), words[index].count >= 4 {
        days = intersect(days, span)
        words.remove(at: index)
      } else {
        index += 1
      }
    }
    return (words, days)
  }

  private static func intersect(_ a: ClosedRange<Int>?, _ b: ClosedRange<Int>) -> ClosedRange<Int> {
    guard let a else { return b }
    let low = max(a.lowerBound, b.lowerBound)
    let high = min(a.upperBound, b.upperBound)
    // Dates that do not overlap match nothing: a day no photo has.
    return low <= high ? low...high : (Int.max / 2)...(Int.max / 2)
  }
}
