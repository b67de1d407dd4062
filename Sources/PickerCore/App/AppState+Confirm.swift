/// What Enter is about to print, checked for files deleted since they were
/// picked before anything is printed.
public struct PickCheck: Hashable, Sendable {
  public var outputs: [PickedOutput]
  public var titles: [[UInt8]]
  /// The tray entry of each output; nil for the focused photo confirmed alone.
  public var keys: [SelectionKey?]
  /// Which photo each output is, the one confirmed alone included.
  public var pickedKeys: [SelectionKey]

  /// The local files to check.
  public var localPaths: [PathBytes] {
    outputs.compactMap { if case .local(let path) = $0 { path } else { nil } }
  }
}

extension AppState {
  /// Enter on a photo: confirm the selection, or the focused photo alone when
  /// nothing is selected. The local files are checked first (`.checkPicked`),
  /// so a file deleted meanwhile is never printed after a reported success.
  mutating func confirm(focused item: PhotoItem?) -> [Effect] {
    let printed = selection.printed
    var check = PickCheck(
      outputs: printed.map(\.output), titles: printed.map(\.title), keys: printed.map(\.key),
      pickedKeys: printed.map(\.key))
    if check.outputs.isEmpty {
      guard let item, item.isPickable, let output = item.pickedOutput else {
        if let item, item.isMissing {
          notice = Notice("\(Sanitizer.sanitize(item.title)) is missing and cannot be picked", isError: true)
        }
        return []
      }
      check = PickCheck(
        outputs: [output], titles: [item.title], keys: [nil],
        pickedKeys: [SelectionKey(sourceID: sources[grid.activeSource].id, itemID: item.id)])
    }
    if let refusal = refusal(toPrint: check) {
      notice = Notice(refusal, isError: true)
      return []
    }
    return check.localPaths.isEmpty ? finishConfirm(check) : [.checkPicked(check)]
  }

  /// The files of a confirm were checked: `missing` are gone. The first time
  /// they are marked in the tray and nothing is printed; Enter again (with
  /// the same files gone) prints the others.
  mutating func receiveCheck(_ check: PickCheck, missing: Set<PathBytes>, notFiles: Set<PathBytes> = []) -> [Effect] {
    // A second Enter's check, once a download has started, is late.
    if let top = topMode, type(of: top).carriesConfirmOut { return [] }
    if missing.isEmpty { return finishConfirm(check) }
    let isGone = { (output: PickedOutput) in if case .local(let path) = output { missing.contains(path) } else { false }
    }
    let goneKeys = zip(check.outputs, check.keys).compactMap { isGone($0) ? $1 : nil }
    confirmFlow.missingPicks.formUnion(goneKeys)
    let kept = check.outputs.indices.filter { !isGone(check.outputs[$0]) }
    let firstGone = check.outputs.indices.first { isGone(check.outputs[$0]) }.map {
      Sanitizer.sanitize(check.titles[$0])
    }
    let gone: String
    switch (missing.count, notFiles.isSuperset(of: missing), notFiles.isEmpty) {
    case (1, true, _): gone = "\(firstGone ?? "a picked file") is not a regular file (a pipe or a device)"
    case (1, _, _): gone = "\(firstGone ?? "a picked file") no longer exists"
    case (_, true, _): gone = "\(missing.count) picked paths are not regular files"
    case (_, _, true): gone = "\(missing.count) picked files no longer exist"
    default: gone = "\(missing.count) picked files are gone or not regular files"
    }
    if kept.isEmpty {
      notice = Notice("\(gone): nothing to print", isError: true)
      return []
    }
    guard missing.isSubset(of: confirmFlow.acknowledgedMissing) else {
      confirmFlow.acknowledgedMissing = missing
      let others = kept.count == 1 ? "the other one" : "the other \(kept.count)"
      notice = Notice("\(gone) (✗ in the tray): Enter again prints \(others), t then x removes it", isError: true)
      return []
    }
    let rest = PickCheck(
      outputs: kept.map { check.outputs[$0] }, titles: kept.map { check.titles[$0] }, keys: kept.map { check.keys[$0] },
      pickedKeys: kept.map { check.pickedKeys[$0] })
    if let refusal = refusal(toPrint: rest) {
      notice = Notice(refusal, isError: true)
      return []
    }
    return finishConfirm(rest)
  }

  private func refusal(toPrint check: PickCheck) -> String? {
    if let refusal = options.limits.refusalToConfirm(count: check.outputs.count) { return refusal }
    if !options.print0, let bad = check.localPaths.first(where: { $0.bytes.contains(UInt8(ascii: "\n")) }) {
      return "\(Sanitizer.sanitize(bad.lastComponent)) has a newline in its path: use -0 (--print0) to pick it"
    }
    return nil
  }

  private mutating func finishConfirm(_ check: PickCheck) -> [Effect] {
    confirmFlow.confirmed = check
    let paths = check.localPaths
    if paths.count < check.outputs.count { return startDownload(check.outputs, titles: check.titles) }
    return [.finish(.picked(paths))]
  }
}
