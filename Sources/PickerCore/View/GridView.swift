/// The grid of tiles for the scope on screen.
enum GridView {
  static func draw(_ state: AppState, theme: Theme, into screen: inout Screen) {
    guard let scope = state.scope else { return }
    let layout = state.layout
    let sourceID = state.sources[state.grid.activeSource].id
    let grid = state.gridRows
    var top = layout.gridTop
    var row = scope.scrollRow
    // The top row's day, when its own header line is above the screen.
    if let sticky = grid.stickyDay(atRow: row) {
      let words = DayHeaderText.fitting(sticky.day, width: screen.width - 2, continued: sticky.continued)
      screen.put(words, x: 1, y: top, style: theme.keyLabel)
      top += 1
    }
    while row < grid.count, let kind = grid.row(row) {
      let height = grid.height(ofRow: row, layout: layout)
      guard top + height <= layout.gridTop + layout.gridHeight else { break }
      defer {
        top += height
        row += 1
      }
      guard case .tiles(let cells) = kind else {
        // A header line with no room for its tiles below is left out.
        guard top + 1 + layout.tileHeight <= layout.gridTop + layout.gridHeight else { break }
        if case .header(let labels) = kind { drawHeader(labels, layout: layout, y: top, theme: theme, into: &screen) }
        continue
      }
      for (column, index) in cells.enumerated() {
        guard let cell = scope.cell(at: index) else { continue }
        let origin = (x: column * (layout.tileWidth + 1), y: top)
        let content: TileView.Content
        var selected = false
        switch cell {
        case .back:
          content = .back
        case .loadMore:
          // What the next page will hold: known once fetched, else bounded
          // by what the source said is left.
          let pageSize = layout.pageSize(requested: state.options.pageSize)
          let left = scope.total.map { max(0, $0 - scope.nextOffset) } ?? pageSize
          let count = scope.prefetched?.items.count ?? min(pageSize, left)
          let progress = scope.total.map { "\(scope.loadedPhotoCount) of \($0)" }
          content = .loadMore(
            count: count, loading: scope.revealOnArrival || scope.seeksEnd, failed: scope.error != nil,
            progress: progress)
        case .item(let itemIndex):
          var item = scope.items[itemIndex]
          item.culling = state.culling(of: item)
          // An opened stack marks its sharpest photo, the cover.
          if case .stack(let coverID) = scope.kind, item.id == coverID { item.title = Array("★ ".utf8) + item.title }
          let thumbnail: TileView.Picture =
            if !state.options.showsThumbnails { .off } else {
              state.thumbnailKey(for: item).flatMap { state.thumbnails[$0] }.map(TileView.Picture.init) ?? .pending
            }
          selected = state.selection.contains(SelectionKey(sourceID: sourceID, itemID: item.id))
          // A stack whose picked photo is not its cover names that photo.
          if !selected, let member = state.pickedMember(of: item) {
            selected = true
            item.title = member.title
          }
          content = .item(item, thumbnail)
        }
        let focused = index == scope.focus && state.isOnGrid
        TileView.draw(
          content, at: origin, layout: layout, focused: focused, selected: selected, theme: theme,
          into: &screen)
      }
    }
    drawEmptyOrError(scope, layout: layout, below: top, theme: theme, into: &screen)
  }

  /// A header line: each day's words over its own tiles, shortened to
  /// their width (the last day of the line may use the rest of it).
  private static func drawHeader(
    _ labels: [GridRows.DayLabel], layout: GridLayout, y: Int, theme: Theme, into screen: inout Screen
  ) {
    let step = layout.tileWidth + 1
    for (index, label) in labels.enumerated() {
      let x = label.column * step + 1
      let end = index + 1 < labels.count ? labels[index + 1].column * step : layout.columns * step
      screen.put(DayHeaderText.fitting(label.dayCount, width: end - x - 1), x: x, y: y, style: theme.keyLabel)
    }
  }

  /// A line below the tiles saying why there is nothing (more) to show.
  private static func drawEmptyOrError(
    _ scope: Scope, layout: GridLayout, below top: Int, theme: Theme, into screen: inout Screen
  ) {
    var text: String?
    var style = theme.muted
    if let error = scope.error, scope.items.isEmpty {
      text = "⚠ " + error
      style = theme.error
    } else if scope.hasLoadedOnce && scope.items.isEmpty && !scope.hasMore {
      if case .search = scope.kind {
        text = "No matches"
      } else {
        // The source's own reason, when it gave one ("No photos between …").
        text = scope.note ?? "No photos or folders here"
      }
    } else if !scope.hasLoadedOnce {
      text = "Loading…"
    }
    guard let text else { return }
    let y = top
    guard y < layout.gridTop + layout.gridHeight else { return }
    screen.put(DisplayWidth.truncate(text, to: screen.width - 2), x: 1, y: y, style: style)
  }
}
