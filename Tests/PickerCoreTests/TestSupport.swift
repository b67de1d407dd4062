import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Builders shared by the app tests.
enum Fixture {
  static func photo(_ name: String, folder: String = "/p") -> PhotoItem {
    let path = PathBytes(folder + "/" + name)
    return PhotoItem(
      id: name, kind: .photo, title: Array(name.utf8), thumbnail: .file(path), original: .file(path),
      outputPath: path)
  }

  static func pickedPhoto(_ name: String, source: String = "files") -> PickedPhoto {
    PickedPhoto(
      key: SelectionKey(sourceID: source, itemID: name), title: Array(name.utf8), outputPath: PathBytes("/p/" + name))
  }

  static func folder(_ name: String, count: Int? = nil) -> PhotoItem {
    PhotoItem(id: name, kind: .folder(count: count), title: Array(name.utf8))
  }

  static func photos(_ range: ClosedRange<Int>, prefix: String = "IMG_") -> [PhotoItem] {
    range.map { photo("\(prefix)\($0).jpg") }
  }

  static func source(
    _ title: String = "Files", id: String? = nil, capabilities: SourceCapabilities = [.albums, .paging, .search]
  ) -> SourceSummary {
    SourceSummary(
      id: id ?? title.lowercased(), title: title, icon: "▤", capabilities: capabilities, rootLabel: "/p")
  }

  /// A state started at 120x40 (6 columns, 3 rows of tiles) with its loads.
  static func started(
    sources: [SourceSummary] = [source()], options: AppOptions = AppOptions(),
    size: TerminalSize = TerminalSize(width: 120, height: 40)
  ) -> (AppState, [Effect]) {
    var state = AppState(sources: sources, options: options, size: size)
    let effects = state.update(.start)
    return (state, effects)
  }
}

extension AppState {
  /// Answers the page load for the source on screen with `items`.
  mutating func answerLoad(from effects: [Effect], with items: [PhotoItem], total: Int? = nil, hasMore: Bool = false)
    -> [Effect]
  {
    guard let load = effects.loads.last(where: { $0.sourceIndex == grid.activeSource }) else {
      Issue.record("no load for the active source in \(effects)")
      return []
    }
    return update(.pageLoaded(load, Page(items: items, hasMore: hasMore, total: total)))
  }

  /// Presses keys in order; returns the effects of the last one.
  @discardableResult
  /// Presses keys in order; a confirm's file check is answered as the
  /// runner would when every file is still there.
  mutating func press(_ keys: Key...) -> [Effect] {
    var effects: [Effect] = []
    for key in keys {
      effects += update(.key(key))
      for case .checkPicked(let check) in effects { effects = update(.pickedChecked(check, missing: [])) }
    }
    return effects
  }

  var focusedTitle: String? {
    focusedItem.map { String(decoding: $0.title, as: UTF8.self) }
  }
}

extension AppState {
  /// A report for the mode on top, as its task would post it.
  func messageToTop(_ message: some Hashable & Sendable) -> AppEvent {
    .modeMessage(modeID: modes.top!.id, AnyHashableSendable(message))
  }
}

extension Array where Element == Effect {
  /// The modes' tasks asked for, with the asking mode's id.
  var modeTasks: [(modeID: Int, task: ModeTask)] {
    compactMap { if case .modeTask(let id, let task) = $0 { (id, task) } else { nil } }
  }

  /// The download asked for, and its mode's id.
  var download: (modeID: Int, plan: DownloadPlan)? {
    modeTasks.lazy.compactMap { task in (task.task.what.base.base as? DownloadPlan).map { (task.modeID, $0) } }.first
  }

  var loads: [PageLoad] {
    compactMap { if case .load(let load) = $0 { return load } else { return nil } }
  }

  var outcome: Outcome? {
    for effect in self { if case .finish(let outcome) = effect { return outcome } }
    return nil
  }
}
