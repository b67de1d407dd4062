import Foundation

/// The picks as `--format` prints them, one entry a pick.
public enum PickPrinter {
  public static func text(of items: [PickedItem], format: PickFormat, index: LibraryIndex?) -> [String] {
    let records = indexed(items.compactMap(\.path), in: index)
    var line: [UInt8] = []
    return items.map { item in
      let record = PickRecord(
        path: item.path, url: item.url, name: item.titleBytes, details: item.details,
        indexed: item.path.flatMap { records[$0] })
      switch format {
      case .paths: return String(decoding: (item.path ?? PathBytes(item.url ?? "")).bytes, as: UTF8.self)
      case .json:
        // Bytes, not a String appended to: a tenth of the time a line.
        line.removeAll(keepingCapacity: true)
        line.append(UInt8(ascii: "{"))
        for (position, value) in record.values().enumerated() {
          if position > 0 { line.append(UInt8(ascii: ",")) }
          line.append(contentsOf: PickField.jsonKeys[position])
          value.write(into: &line)
        }
        line.append(UInt8(ascii: "}"))
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
