/// The year/month scale at the right edge of a timeline, as a phone
/// gallery's scrubber: each line stands for an equal share of the photos,
/// years and months are named where they start, and the month of the
/// focused photo is marked. A click on a line jumps to that month.
public enum TimelineScaleView {
  /// Columns the scale takes (a marker and four for "2025" or "Jun").
  public static let width = 5

  /// Whether the scope on screen has one: a timeline whose day counts are
  /// known, in a terminal wide enough to spare the columns.
  static func isShown(for scope: Scope?, size: TerminalSize) -> Bool {
    guard let days = scope?.days, days.count > 1 else { return false }
    return size.width >= 48
  }

  /// The item at the start of each scale line, and the month it falls in.
  /// Lines are equal shares of the photos, except that every year gets a
  /// line of its own where there are lines enough: a year of two photos
  /// among thousands would otherwise fall between two lines, unnamed.
  static func lines(days: [DayCount], height: Int) -> [(item: Int, month: CivilDate)] {
    let total = days.reduce(0) { $0 + $1.count }
    guard total > 0, height > 0 else { return [] }
    var result: [(item: Int, month: CivilDate)] = []
    var dayIndex = 0
    var firstOfDay = 0
    for line in 0..<height {
      let item = line * total / height
      while dayIndex + 1 < days.count, firstOfDay + days[dayIndex].count <= item {
        firstOfDay += days[dayIndex].count
        dayIndex += 1
      }
      var month = CivilDate(dayNumber: days[dayIndex].day)
      month.day = 1
      result.append((item, month))
    }
    // Each year's first photo and first month, in listing order.
    var years: [(item: Int, month: CivilDate)] = []
    var item = 0
    for day in days {
      var month = CivilDate(dayNumber: day.day)
      month.day = 1
      if years.last?.month.year != month.year { years.append((item, month)) }
      item += day.count
    }
    guard years.count <= height else { return result }
    let shown = Set(result.map(\.month.year))
    var taken = -1
    for (index, year) in years.enumerated() {
      let ideal = year.item * height / total
      if shown.contains(year.month.year) {
        taken = max(taken, result.firstIndex { $0.month.year == year.month.year } ?? taken)
        continue
      }
      // The line where the year falls, or the next free one, leaving a
      // line for each year still to place.
      let line = min(max(ideal, taken + 1), height - (years.count - index))
      guard line > taken else { continue }
      result[line] = year
      taken = line
    }
    return result
  }

  /// The line standing for listing offset `item`: the marker's line.
  static func line(ofItem item: Int, in lines: [(item: Int, month: CivilDate)]) -> Int? {
    // The last line starting at or before the item (so a year given a
    // line of its own is marked while its photos are focused); of lines
    // that start at the same photo (fewer photos than lines), the first.
    guard !lines.isEmpty else { return nil }
    guard var line = lines.lastIndex(where: { $0.item <= item }) else { return 0 }
    while line > 0, lines[line - 1].item == lines[line].item { line -= 1 }
    return line
  }

  static func draw(_ state: AppState, theme: Theme, into screen: inout Screen) {
    guard isShown(for: state.scope, size: state.size), let scope = state.scope, let days = scope.days else { return }
    let layout = state.layout
    let x = screen.width - width
    let lines = lines(days: days, height: layout.gridHeight)
    // The focused photo's line is marked whether or not it names a month.
    var marker: Int?
    if case .item(let index)? = scope.cell(at: scope.focus) {
      marker = line(ofItem: scope.listingOffset(ofItem: index), in: lines)
    }
    for (index, line) in lines.enumerated() {
      let previous = index > 0 ? lines[index - 1].month : nil
      let label: String
      if previous?.year != line.month.year {
        label = String(line.month.year)
      } else if previous?.month != line.month.month {
        label = CivilDate.monthNames[line.month.month - 1]
      } else {
        label = "│"
      }
      let isCurrent = index == marker
      let style = isCurrent ? theme.keyLabel.bolded : label == "│" ? theme.muted : theme.text
      let padded = String(repeating: " ", count: max(0, width - 1 - label.count)) + label
      screen.put((isCurrent ? "▶" : " ") + padded, x: x, y: layout.gridTop + index, style: style)
    }
  }

  /// The item a click on scale line `line` jumps to: the first photo of
  /// that line's month.
  static func item(atLine line: Int, days: [DayCount], height: Int) -> Int? {
    let lines = lines(days: days, height: height)
    guard lines.indices.contains(line) else { return nil }
    let month = lines[line].month.monthNumber
    var first = 0
    for day in days {
      if CivilDate(dayNumber: day.day).monthNumber == month { return first }
      first += day.count
    }
    return lines[line].item
  }
}
