/// The words of a day's header, shortened to the width of its tiles. The
/// date comes first, then the places, then the count: the count is what
/// the tiles already show, the place is what only the header can tell. So
/// as the width shrinks the count goes first, then places after the first,
/// then the weekday and the year:
/// "Sat 14 Jun 2025 · Lisbon, Sintra · 23 photos", "Sat 14 Jun 2025 ·
/// Lisbon, Sintra", "Sat 14 Jun 2025 · Lisbon", "14 Jun 2025 · Lisbon",
/// "14 Jun · Lisbon", then the date alone, at last cut with an ellipsis.
enum DayHeaderText {
  static func fitting(_ day: DayCount, width: Int, continued: Bool = false) -> String {
    let date = CivilDate(dayNumber: day.day)
    let count = countText(day)
    let places = day.places.map(Sanitizer.sanitize)
    var forms: [String] = []
    if continued {
      // The top line of a day scrolled into: where, else how many.
      let what = places.first ?? count
      forms += ["\(date.label) · \(what) (continued)", "\(date.label) (continued)"]
    }
    if let first = places.first {
      let all = places.joined(separator: ", ")
      forms.append("\(date.label) · \(all) · \(count)")
      forms += (0..<places.count).reversed().map { last in
        "\(date.label) · \(places[...last].joined(separator: ", "))"
      }
      forms += ["\(date.dayMonthYear) · \(first)", "\(date.dayMonth) · \(first)"]
    } else {
      forms.append("\(date.label) · \(count)")
    }
    for form in forms + [date.label, date.dayMonthYear, date.dayMonth] where DisplayWidth.of(form) <= width {
      return form
    }
    return DisplayWidth.truncate(date.dayMonth, to: max(0, width))
  }

  /// "23 photos", "3 photos, 1 video", "2 videos".
  static func countText(_ day: DayCount) -> String {
    let videos = min(max(0, day.videos), day.count)
    let photos = day.count - videos
    func counted(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    switch (photos, videos) {
    case (_, 0): return counted(photos, "photo")
    case (0, _): return counted(videos, "video")
    default: return counted(photos, "photo") + ", " + counted(videos, "video")
    }
  }
}
