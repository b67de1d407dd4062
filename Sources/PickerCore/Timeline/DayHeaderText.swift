/// The words of a day's header, shortened to the width of its tiles:
/// "Sat 14 Jun 2025 · Lisbon, Sintra · 23 photos" (the day's places, most
/// photos first, fewer of them as the width shrinks), then "Sat 14 Jun
/// 2025 · 23 photos", "Sat 14 Jun 2025", "14 Jun 2025", "14 Jun", and at
/// last cut with an ellipsis.
enum DayHeaderText {
  static func fitting(_ day: DayCount, width: Int, continued: Bool = false) -> String {
    let date = CivilDate(dayNumber: day.day)
    let count = "\(day.count) photo\(day.count == 1 ? "" : "s")"
    let places = day.places.map(Sanitizer.sanitize)
    let withPlaces = (0..<places.count).reversed().map { last in
      "\(date.label) · \(places[...last].joined(separator: ", ")) · \(count)"
    }
    let forms =
      continued
      ? ["\(date.label) · \(count) (continued)", "\(date.label) (continued)", "\(date.label) · \(count)"]
      : withPlaces + ["\(date.label) · \(count)"]
    for form in forms + [date.label, date.dayMonthYear, date.dayMonth] where DisplayWidth.of(form) <= width {
      return form
    }
    return DisplayWidth.truncate(date.dayMonth, to: max(0, width))
  }
}
