import Foundation

/// The picks as `--format` prints them, one entry a pick.
public enum PickPrinter {
  public static func text(of items: [PickedItem], format: PickFormat, index: LibraryIndex?) -> [String] {
    // Photos listed from the index by their rows, if still those files;
    // the rest by path.
    let byID = indexedByID(items, in: index)
    var records = items.map { item in
      item.details?.indexID.flatMap { byID[$0] }.flatMap { $0.path == item.path ? $0 : nil }
    }
    let byPath = indexed(items.indices.compactMap { records[$0] == nil ? items[$0].path : nil }, in: index)
    if !byPath.isEmpty {
      for position in items.indices where records[position] == nil {
        records[position] = items[position].path.flatMap { byPath[$0] }
      }
    }
    // Each pick's record found once, before the lines: each line then
    // reads its own, with no lookup in a table both cores share.
    let found = records
    @Sendable func text(at position: Int, buffer line: inout [UInt8]) -> String {
      let item = items[position]
      let record = PickRecord(
        path: item.path, url: item.url, name: item.titleBytes, details: item.details, indexed: found[position])
      switch format {
      case .paths: return String(decoding: (item.path ?? PathBytes(item.url ?? "")).bytes, as: UTF8.self)
      case .json:
        // Written as bytes: fewer copies than a String appended to.
        line.removeAll(keepingCapacity: true)
        record.writeJSON(into: &line)
        return String(decoding: line, as: UTF8.self)
      case .template(let parts):
        let values = record.values()
        var out = ""
        for part in parts {
          switch part {
          case .text(let text): out += text
          case .field(let field): out += values[field.position].templateText
          }
        }
        return out
      }
    }
    // Each line stands alone: thousands are written a share on each core
    // (the picker has ended; nothing else wants them).
    let shares = items.count >= 2_000 ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
    let size = (items.count + shares - 1) / shares
    // Each share writes its own slot, and only that one.
    let slots = UnsafeMutableBufferPointer<[String]>.allocate(capacity: shares)
    slots.initialize(repeating: [])
    defer {
      _ = slots.deinitialize()
      slots.deallocate()
    }
    nonisolated(unsafe) let written = slots
    DispatchQueue.concurrentPerform(iterations: shares) { share in
      var line: [UInt8] = []
      written[share] = (min(items.count, share * size)..<min(items.count, (share + 1) * size)).map {
        text(at: $0, buffer: &line)
      }
    }
    return Array(slots.joined())
  }

  /// The index's records of the picks listed from it, by row id.
  static func indexedByID(_ items: [PickedItem], in index: LibraryIndex?) -> [Int64: IndexedRecord] {
    guard let index else { return [:] }
    let ids = items.compactMap { $0.path == nil ? nil : $0.details?.indexID }
    guard !ids.isEmpty else { return [:] }
    return (try? index.records(ids: ids)) ?? [:]
  }

  /// The index's records of the picked paths: as printed first (Photos'
  /// are the index's own), then with links resolved for the others (a
  /// folder given as `.` or through a link).
  static func indexed(_ paths: [PathBytes], in index: LibraryIndex?) -> [PathBytes: IndexedRecord] {
    guard let index, !paths.isEmpty else { return [:] }
    var found = (try? index.records(of: paths)) ?? [:]
    let others = paths.filter { found[$0] == nil }
    guard !others.isEmpty else { return found }
    let resolved = others.map(CanonicalRoot.of)
    let more = (try? index.records(of: resolved)) ?? [:]
    for (path, canonical) in zip(others, resolved) { found[path] = more[canonical] }
    return found
  }
}
