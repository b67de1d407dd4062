/// The grid's rows for a scope at a column count. Without day groups every
/// row is a full row of tiles, cells `row * columns ..< (row + 1) * columns`.
/// In a listing grouped by day, days flow as Google Photos and Immich lay
/// them out: a day with fewer photos than the rest of the row continues on
/// the same row under a header of its own, and a header line above the row
/// names each day that starts on it; a day that does not fit starts a new
/// row, and one longer than a row wraps. Cells keep their indices and stay
/// in order, left to right; only where rows break changes.
public struct GridRows: Hashable, Sendable {
  /// A day's header: its day, photo count and places, over `span` tiles
  /// from tile column `column`.
  public struct DayLabel: Hashable, Sendable {
    public var day: Int
    public var count: Int
    public var column: Int
    public var span: Int
    public var places: [String] = []
    /// How many of `count` are videos.
    public var videos = 0

    var dayCount: DayCount { DayCount(day: day, count: count, places: places, videos: videos) }
  }

  public enum Row: Hashable, Sendable {
    /// The header line above a row: the days that start on it.
    case header([DayLabel])
    /// These cells, left to right.
    case tiles(Range<Int>)
  }

  /// A header line (when a day starts on its first row) and the rows of
  /// tiles below it, each `columns` cells but the last.
  struct Band: Hashable, Sendable {
    var labels: [DayLabel]
    var cells: Range<Int>
    var firstRow = 0
    var hasHeader: Bool { !labels.isEmpty }
  }

  /// Where a day's first cell is, for the day of any cell.
  struct DayStart: Hashable, Sendable {
    var cell: Int
    var day: DayCount
  }

  public let columns: Int
  let bands: [Band]
  let dayStarts: [DayStart]
  public let count: Int
  /// True when there is no header: rows are plain `index / columns`.
  public let isUniform: Bool

  public init(scope: Scope, columns: Int) {
    let columns = max(1, columns)
    self.columns = columns
    let cellCount = scope.cellCount
    guard scope.groupsByDay, scope.sections.contains(where: { $0.day != nil }) else {
      bands = [Band(labels: [], cells: 0..<cellCount)]
      dayStarts = []
      count = (cellCount + columns - 1) / columns
      isUniform = true
      return
    }
    var flow = Flow(columns: columns)
    let wholeDays = scope.days.map { Dictionary($0.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first }) }
    let offset = scope.isRoot ? 0 : 1
    flow.place(nil, 0..<offset)  // Back
    for (index, section) in scope.sections.enumerated() {
      var end = offset + section.start + section.count
      // Load-more sits at the end of the last day's cells.
      if index == scope.sections.count - 1 { end = cellCount }
      let cells = (offset + section.start)..<end
      flow.place(
        section.day.map {
          DayCount(
            day: $0, count: Self.photoCount(of: section, in: scope, wholeDays: wholeDays),
            places: wholeDays?[$0]?.places ?? section.places,
            videos: Self.videoCount(of: section, in: scope, wholeDays: wholeDays))
        },
        cells)
    }
    if scope.sections.isEmpty { flow.place(nil, offset..<cellCount) }
    var row = 0
    var bands = flow.bands
    for index in bands.indices {
      bands[index].firstRow = row
      row += (bands[index].hasHeader ? 1 : 0) + (bands[index].cells.count + columns - 1) / columns
    }
    self.bands = bands
    self.dayStarts = flow.dayStarts
    self.count = row
    self.isUniform = false
  }

  /// The photos of a day: the whole day's count when the source gave one
  /// (a window holds part of it), else the section's photos, a stack's
  /// counting each of its photos.
  static func photoCount(of section: ItemSection, in scope: Scope, wholeDays: [Int: DayCount]?) -> Int {
    if let day = section.day, let whole = wholeDays?[day] { return whole.count }
    guard scope.stacking != nil else { return section.count }
    return scope.items[section.start..<(section.start + section.count)].reduce(0) { $0 + ($1.stack?.count ?? 1) }
  }

  /// The videos among them, counted the same way.
  static func videoCount(of section: ItemSection, in scope: Scope, wholeDays: [Int: DayCount]?) -> Int {
    if let day = section.day, let whole = wholeDays?[day] { return whole.videos }
    return scope.items[section.start..<(section.start + section.count)].reduce(0) { $0 + ($1.isVideo ? 1 : 0) }
  }

  /// Lays groups of cells into bands, left to right.
  private struct Flow {
    let columns: Int
    var bands: [Band] = []
    var dayStarts: [DayStart] = []
    /// Tiles on the last row so far (0: it is full, or there is none).
    var used = 0

    mutating func place(_ day: DayCount?, _ cells: Range<Int>) {
      let count = cells.count
      guard count > 0 else { return }
      if let day { dayStarts.append(DayStart(cell: cells.lowerBound, day: day)) }
      guard used > 0, used + count <= columns else {
        // A new row: the day does not fit beside what is there.
        let labels = day.map {
          [
            DayLabel(
              day: $0.day, count: $0.count, column: 0, span: min(count, columns), places: $0.places, videos: $0.videos)
          ]
        }
        bands.append(Band(labels: labels ?? [], cells: cells))
        used = count % columns
        return
      }
      // Beside the last row's tiles. A band longer than that row gives it
      // up: the row needs a header line of its own for this day.
      var last = bands.removeLast()
      let rowStart = cells.lowerBound - used
      if last.cells.count > used {
        bands.append(Band(labels: last.labels, cells: last.cells.lowerBound..<rowStart))
        last = Band(labels: [], cells: rowStart..<rowStart)
      }
      last.cells = last.cells.lowerBound..<cells.upperBound
      if let day {
        last.labels.append(
          DayLabel(
            day: day.day, count: day.count, column: used, span: count, places: day.places, videos: day.videos))
      }
      bands.append(last)
      used = (used + count) % columns
    }
  }

  /// The band holding grid row `row`.
  private func band(ofRow row: Int) -> Band? {
    var low = 0
    var high = bands.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if bands[middle].firstRow <= row { low = middle + 1 } else { high = middle - 1 }
    }
    return high >= 0 ? bands[high] : nil
  }

  public func row(_ index: Int) -> Row? {
    guard index >= 0, index < count else { return nil }
    if isUniform {
      let start = index * columns
      return .tiles(start..<min(start + columns, bands[0].cells.upperBound))
    }
    guard let band = band(ofRow: index) else { return nil }
    var local = index - band.firstRow
    if band.hasHeader {
      if local == 0 { return .header(band.labels) }
      local -= 1
    }
    let start = band.cells.lowerBound + local * columns
    return .tiles(start..<min(start + columns, band.cells.upperBound))
  }

  /// The grid row of a cell.
  public func row(ofCell cell: Int) -> Int {
    if isUniform { return cell / columns }
    var low = 0
    var high = bands.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if bands[middle].cells.lowerBound <= cell { low = middle + 1 } else { high = middle - 1 }
    }
    guard high >= 0 else { return 0 }
    let band = bands[high]
    return band.firstRow + (band.hasHeader ? 1 : 0) + (cell - band.cells.lowerBound) / columns
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

  /// Whether grid row `index` is a header line.
  public func isHeader(_ index: Int) -> Bool {
    if case .header? = row(index) { return true }
    return false
  }

  /// The row to put at the top so that `row` shows with its header line
  /// when it has one.
  public func topRow(showingHeaderOf row: Int) -> Int {
    row > 0 && isHeader(row - 1) ? row - 1 : row
  }

  /// The day a cell belongs to, and whether it is that day's first cell.
  public func day(ofCell cell: Int) -> (day: DayCount, isFirst: Bool)? {
    var low = 0
    var high = dayStarts.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if dayStarts[middle].cell <= cell { low = middle + 1 } else { high = middle - 1 }
    }
    guard high >= 0 else { return nil }
    return (dayStarts[high].day, dayStarts[high].cell == cell)
  }

  /// The day named on the grid's top line when `first`, the top row, is a
  /// row of tiles: its header line is above the screen, or the day began
  /// on an earlier row. Nil on a header line and for undated cells.
  public func stickyDay(atRow first: Int) -> (day: DayCount, continued: Bool)? {
    guard !isUniform, case .tiles(let cells)? = row(first), let found = day(ofCell: cells.lowerBound) else {
      return nil
    }
    return (found.day, !found.isFirst)
  }

  /// Lines the sticky day header takes above row `first` (0 or 1).
  func stickyLines(atRow first: Int) -> Int { stickyDay(atRow: first) == nil ? 0 : 1 }

  /// Lines a row takes on screen.
  public func height(ofRow index: Int, layout: GridLayout) -> Int {
    isHeader(index) ? 1 : layout.tileHeight
  }

  /// How many rows from `first` fit in the grid's height (at least one).
  public func visibleRowCount(from first: Int, layout: GridLayout) -> Int {
    if isUniform { return layout.visibleRows }
    var used = stickyLines(atRow: first)
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
      if used + height + stickyLines(atRow: first - 1) > layout.gridHeight { break }
      used += height
      first -= 1
    }
    return first
  }

  /// The first day shown at or after row `first` (for the scale and the
  /// breadcrumb).
  public func day(atRow first: Int) -> Int? {
    guard !isUniform, let band = band(ofRow: first) else { return nil }
    if first == band.firstRow, let label = band.labels.first { return label.day }
    if case .tiles(let cells)? = row(first), let found = day(ofCell: cells.lowerBound) { return found.day.day }
    return bands.first { $0.firstRow > first && $0.hasHeader }?.labels.first?.day
  }
}
