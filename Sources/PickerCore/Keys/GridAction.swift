/// Everything a key can ask of the grid.
public enum GridAction: Hashable, Sendable {
  case moveUp, moveDown, moveLeft, moveRight
  case pageUp, pageDown, first, last
  case toggle, activate, parent
  case nextSource, previousSource
  case source(Int)
  case search, focusTray, bigger, smaller, cycleSort, signOut, help
  /// Ends the run at once, printing nothing (Ctrl-C).
  case cancel
  /// Ends the run printing nothing, but asks first when there are picks (q).
  case quit
  /// Back one level: out of search results, an opened stack or a folder;
  /// at a source's top it cancels.
  case back
  case preview
  /// The picked photos side by side.
  case compare
  /// Near-identical shots as one stack, or each on its own.
  case toggleStacks
  case restorePicks
  /// The timeline's jumps (any listing in date order): by month, by day,
  /// and to a date typed in a prompt.
  case nextMonth, previousMonth, nextDay, previousDay, goToDate
  /// The Places scope: countries, then their places, then the photos.
  case places
  /// Stars, reject, labels, undo (`CullingCommand`).
  case cull(CullingCommand)
  /// Rejected photos hidden or shown again.
  case hideRejected
  /// Many at once (`AppState+SelectMany`): the focused day, from the mark
  /// to the focus, everything listed, the selection of the listing
  /// inverted; the mark set where the focus is.
  case selectDay, mark, selectRange, selectAll, invertSelection
}

extension GridAction: KeyCommand {
  public var cullingCommand: CullingCommand? {
    if case .cull(let command) = self { return command }
    return nil
  }

  public var name: String {
    switch self {
    case .moveUp: "move-up"
    case .moveDown: "move-down"
    case .moveLeft: "move-left"
    case .moveRight: "move-right"
    case .pageUp: "page-up"
    case .pageDown: "page-down"
    case .first: "first"
    case .last: "last"
    case .toggle: "toggle"
    case .activate: "activate"
    case .parent: "parent"
    case .nextSource: "next-source"
    case .previousSource: "previous-source"
    case .source(let index): "source-\(index + 1)"
    case .search: "search"
    case .focusTray: "focus-tray"
    case .bigger: "bigger"
    case .smaller: "smaller"
    case .cycleSort: "sort"
    case .signOut: "sign-out"
    case .help: "help"
    case .cancel: "cancel"
    case .quit: "quit"
    case .back: "back"
    case .preview: "preview"
    case .compare: "compare"
    case .toggleStacks: "stacks"
    case .restorePicks: "restore-picks"
    case .nextMonth: "next-month"
    case .previousMonth: "previous-month"
    case .nextDay: "next-day"
    case .previousDay: "previous-day"
    case .goToDate: "go-to-date"
    case .places: "places"
    case .cull(let command): command.name
    case .hideRejected: "hide-rejected"
    case .selectDay: "select-day"
    case .mark: "mark"
    case .selectRange: "select-range"
    case .selectAll: "select-all"
    case .invertSelection: "invert-selection"
    }
  }

  public static var bindable: [GridAction] {
    [
      .moveUp, .moveDown, .moveLeft, .moveRight, .pageUp, .pageDown, .first, .last, .toggle, .activate, .parent,
      .nextSource, .previousSource,
    ] + (0..<9).map(GridAction.source)
      + [
        .search, .focusTray, .bigger, .smaller, .cycleSort, .signOut, .help, .cancel, .quit, .back, .preview, .compare,
        .toggleStacks, .restorePicks,
        .nextMonth, .previousMonth, .nextDay, .previousDay, .goToDate, .places, .hideRejected,
        .selectDay, .mark, .selectRange, .selectAll, .invertSelection,
      ] + CullingCommand.all.map(GridAction.cull)
  }

  /// Actions that act on the photos: typed before the first page arrives,
  /// they wait for it.
  var actsOnPhotos: Bool {
    switch self {
    case .moveUp, .moveDown, .moveLeft, .moveRight, .pageUp, .pageDown, .first, .last, .toggle, .activate, .preview,
      .nextMonth, .previousMonth, .nextDay, .previousDay, .cull, .selectDay, .mark, .selectRange, .selectAll,
      .invertSelection:
      return true
    default:
      return false
    }
  }
}

extension KeyMap where Command == GridAction {
  /// The grid's keys (the README's key table).
  public static let grid = KeyMap(
    bindings: [
      Binding([.up, .char("k")], .moveUp, help: "move up", group: "move"),
      Binding([.down, .char("j")], .moveDown, help: "move down", group: "move"),
      Binding([.left, .char("h")], .moveLeft, help: "move left", group: "move"),
      Binding([.right, .char("l")], .moveRight, help: "move right", group: "move"),
      Binding([.pageUp], .pageUp, help: "page up", group: "page up / down"),
      Binding([.pageDown], .pageDown, help: "page down", group: "page up / down"),
      Binding([.home, .char("g")], .first, help: "first cell", group: "first / last cell (the real end when known)"),
      Binding([.end, .char("G")], .last, help: "last cell", group: "first / last cell (the real end when known)"),
      Binding([.enter], .activate, help: "open folder, Back or Load-more; on a photo: confirm", hint: "pick"),
      Binding(
        [.char(" ")], .toggle, help: "select or unselect the photo", hint: "select",
        group: "select: photo · day · mark, to mark · all · invert"),
      Binding(
        [.char("D")], .selectDay, help: "select the day's photos",
        group: "select: photo · day · mark, to mark · all · invert"),
      Binding([.char("m")], .mark, help: "mark", group: "select: photo · day · mark, to mark · all · invert"),
      Binding(
        [.char("M")], .selectRange, help: "from the mark to here",
        group: "select: photo · day · mark, to mark · all · invert"),
      Binding(
        [.char("a")], .selectAll, help: "all listed", group: "select: photo · day · mark, to mark · all · invert"),
      Binding(
        [.char("i")], .invertSelection, help: "invert", group: "select: photo · day · mark, to mark · all · invert"),
      Binding([.backspace], .parent, help: "back to the parent folder"),
      Binding([.tab], .nextSource, help: "next source", hint: "source", group: "next / previous source"),
      Binding([.backTab], .previousSource, help: "previous source", group: "next / previous source"),
    ]
      + (1...9).map { n in
        Binding([.char(Character(String(n)))], .source(n - 1), help: "source \(n)")
      }
      + [
        Binding([.char("/")], .search, help: "search in the current source", hint: "search"),
        Binding([.char("]")], .nextMonth, help: "next month (older)", group: "month / day: older, newer"),
        Binding([.char("[")], .previousMonth, help: "previous month (newer)", group: "month / day: older, newer"),
        Binding([.char("}")], .nextDay, help: "next day (older)", group: "month / day: older, newer"),
        Binding([.char("{")], .previousDay, help: "previous day (newer)", group: "month / day: older, newer"),
        Binding([.char(":")], .goToDate, help: "go to a date (2023, 2023-06, jun 2023, yesterday)"),
        Binding([.char("P")], .places, help: "places: countries, their towns, their photos"),
        Binding([.char("H")], .hideRejected, help: "hide / show rejected photos"),
        Binding(
          [.char("v")], .preview, help: "preview the photo full screen",
          group: "preview / compare picks / picked tray (keys below)"),
        Binding(
          [.char("c")], .compare, help: "compare the picked photos side by side (none picked: a stack's)",
          group: "preview / compare picks / picked tray (keys below)"),
        Binding(
          [.char("t")], .focusTray, help: "focus the picked tray",
          group: "preview / compare picks / picked tray (keys below)"),
        Binding([.char("+"), .char("=")], .bigger, help: "bigger thumbnails", group: "bigger / smaller thumbnails"),
        Binding([.char("-")], .smaller, help: "smaller thumbnails", group: "bigger / smaller thumbnails"),
        Binding([.char("s")], .cycleSort, help: "sort by name / date taken"),
        Binding([.char("S")], .toggleStacks, help: "stacks of near-identical shots on / off (Enter opens one)"),
        Binding([.char("O")], .signOut, help: "sign out of this source (forgets its credentials)"),
        Binding([.char("R")], .restorePicks, help: "restore the picks of an unfinished run (when offered)"),
        Binding([.char("?"), .function(1)], .help, help: "this help", hint: "help"),
        Binding(
          [.escape], .back, help: "back (results, stack, folder); at the top: leave",
          hint: "back"),
        Binding(
          [.char("q")], .quit, help: "leave, printing nothing (asks first with picks)",
          group: "leave, print nothing (Esc, q ask first with picks)"),
        Binding(
          [.ctrl("c")], .cancel, help: "cancel at once: print nothing",
          group: "leave, print nothing (Esc, q ask first with picks)"),
      ] + KeyMap<GridAction>.cullingBindings(plainDigits: false) { GridAction.cull($0) })

  /// The help screen's rows, the digit bindings folded into one ("1-9").
  public var gridHelpRows: [(keys: String, help: String)] {
    helpRows { action in
      switch action {
      case .source(let n): return (n == 0, "1-9", "n-th source")
      // Beside the culling keys' row, in the same words.
      case .cull(let command):
        guard var row = cullingFold(action) else { return nil }
        let hide = keys(for: .hideRejected)
        if row.first, !hide.isEmpty {
          row.keys += " " + hide.map(\.label).joined(separator: " ")
          row.help += ", hide rejected"
        }
        _ = command
        return row
      case .hideRejected: return (false, "", "")
      default: return nil
      }
    }
  }
}
