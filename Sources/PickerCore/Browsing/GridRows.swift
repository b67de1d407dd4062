/// The grid's rows for a scope at a column count: rows of tiles, and in a
/// listing grouped by day a one-line header before each day's first row
/// (a day starts a new row). Cells keep their indices; only where they sit
/// changes. Without day groups every row is a full row of tiles, as cells
/// `row * columns ..< (row + 1) * columns`.
public struct GridRows: Hashable, Sendable {
  public enum Row: Hashable, Sendable {
    /// "Sat 14 Jun 2025 · 23 photos".
    case header(day: Int, count: Int)
    /// These cells, left to right.
    case tiles(Range<Int>)
  }

  /// A run of cells under one header (or none), starting at grid row `firstRow`.
  struct Segment: Hashable, Sendable {
    var header: DayCount?
    var cells: Range<Int>
    var firstRow: Int
  }

  public let columns: Int
  let segments: [Segment]
  public let count: Int
  /// True when there is no header: rows are plain `index / columns`.
  public let isUniform: Bool

  public init(scope: Scope, columns: Int) {
    let columns = max(1, columns)
    self.columns = columns
    let cellCount = scope.cellCount
    guard scope.groupsByDay, scope.sections.contains(where: { $0.day != nil }) else {
      segments = [Segment(header: nil, cells: 0..<cellCount, firstRow: 0)]
      count = (cellCount + columns - 1) / columns
      isUniform = true
      return
    }
    let wholeDays = scope.days.map { Dictionary($0.map { ($0.day, $0.count) }, uniquingKeysWith: +) }
    let offset = scope.isRoot ? 0 : 1
    var segments: [Segment] = []
    var row = 0
    func add(_ header: DayCount?, _ cells: Range<Int>) {
      guard !cells.isEmpty else { return }
      segments.append(Segment(header: header, cells: cells, firstRow: row))
      row += (header == nil ? 0 : 1) + (cells.count + columns - 1) / columns
    }
    add(nil, 0..<offset)  // Back
    for (index, section) in scope.sections.enumerated() {
      var end = offset + section.start + section.count
      // Load-more sits at the end of the last day's rows.
      if index == scope.sections.count - 1 { end = cellCount }
      let cells = (offset + section.start)..<end
      if let day = section.day {
        add(DayCount(day: day, count: wholeDays?[day] ?? section.count), cells)
      } else {
        add(nil, cells)
      }
    }
    if scope.sections.isEmpty { add(nil, offset..<cellCount) }
    self.segments = segments
    self.count = row
    self.isUniform = false
  }

  /// The segment holding grid row `row`.
  private func segment(ofRow row: Int) -> Segment? {
    var low = 0
    var high = segments.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if segments[middle].firstRow <= row { low = middle + 1 } else { high = middle - 1 }
    }
    return high >= 0 ? segments[high] : nil
  }

  public func row(_ index: Int) -> Row? {
    guard index >= 0, index < count else { return nil }
    if isUniform {
      let start = index * columns
      return .tiles(start..<min(start + columns, segments[0].cells.upperBound))
    }
    guard let segment = segment(ofRow: index) else { return nil }
    var local = index - segment.firstRow
    if let header = segment.header {
      if local == 0 { return .header(day: header.day, count: header.count) }
      local -= 1
    }
    let start = segment.cells.lowerBound + local * columns
    return .tiles(start..<min(start + columns, segment.cells.upperBound))
  }

  /// The grid row of a cell.
  public func row(ofCell cell: Int) -> Int {
    if isUniform { return cell / columns }
    var low = 0
    var high = segments.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if segments[middle].cells.lowerBound <= cell { low = middle + 1 } else { high = middle - 1 }
    }
    guard high >= 0 else { return 0 }
    let segment = segments[high]
    return segment.firstRow + (segment.header == nil ? 0 : 1) + (cell - segment.cells.lowerBound) / columns
  }

  /// The cells of a row of tiles; empty for a header or past the end.
  public func cells(inRow index: Int) -> Range<Int> {
    if case .tiles(let cells)? = row(index) { return cells }
    return 0..<0
  }

  /// The nearest row of tiles from `row` going by `step` (±1), if any.
  public func tileRow(from row: Int, step: Int) -> Int? {
    var candidate = row + step
    while candidate >= 0 && candidate < count {
      if case .tiles? = self.row(candidate) { return candidate }
      candidate += step
    }
    return nil
  }

  /// Whether grid row `index` is a day's header.
  public func isHeader(_ index: Int) -> Bool {
    if case .header? = row(index) { return true }
    return false
  }

  /// The row to put at the top so that `row` shows with its day's header
  /// when it is the day's first row.
  public func topRow(showingHeaderOf row: Int) -> Int {
    row > 0 && isHeader(row - 1) ? row - 1 : row
  }

  /// Lines a row takes on screen.
  public func height(ofRow index: Int, layout: GridLayout) -> Int {
    isHeader(index) ? 1 : layout.tileHeight
  }

  /// How many rows from `first` fit in the grid's height (at least one).
  public func visibleRowCount(from first: Int, layout: GridLayout) -> Int {
    if isUniform { return layout.visibleRows }
    var used = 0
    var rows = 0
    while first + rows < count {
      let height = height(ofRow: first + rows, layout: layout)
      if used + height > layout.gridHeight { break }
      used += height
      rows += 1
    }
    return max(1, rows)
  }

  /// The first row to show so that `last` is the bottom row on screen.
  public func firstRow(showingLast last: Int, layout: GridLayout) -> Int {
    if isUniform { return max(0, last - layout.visibleRows + 1) }
    var used = height(ofRow: last, layout: layout)
    var first = last
    while first > 0 {
      let height = height(ofRow: first - 1, layout: layout)
      if used + height > layout.gridHeight { break }
      used += height
      first -= 1
    }
    return first
  }

  /// The first day shown at or after row `first` (for the scale and the
  /// breadcrumb).
  public func day(atRow first: Int) -> Int? {
    guard !isUniform, let segment = segment(ofRow: first) else { return nil }
    if let header = segment.header { return header.day }
    return segments.first { $0.firstRow > first && $0.header != nil }?.header?.day
  }
}
