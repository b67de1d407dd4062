import Foundation

/// `--format`: how each pick is printed. `json` is one object a line;
/// anything else is a template whose `{name}`s are the JSON's fields
/// (`{path}\t{taken}`), `\t`, `\n` and `\\` read as in C.
public enum PickFormat: Equatable, Sendable {
  case paths
  case json
  case template([TemplatePart])

  public enum TemplatePart: Equatable, Sendable {
    case text(String)
    case field(PickField)
  }

  /// The fields a template may name, in the JSON's order.
  public static let fieldNames = PickField.allCases.map(\.rawValue)

  /// Parses `--format`; the error names an unknown field.
  public static func parse(_ text: String) throws -> PickFormat {
    if text == "json" { return .json }
    if text == "paths" { return .paths }
    var parts: [TemplatePart] = []
    var literal = ""
    var characters = Array(text)[...]
    while let c = characters.popFirst() {
      switch c {
      case "\\":
        switch characters.popFirst() {
        case "t"?: literal.append("\t")
        case "n"?: literal.append("\n")
        case "0"?: literal.append("\0")
        case let other?: literal.append(other)
        case nil: literal.append("\\")
        }
      case "{":
        guard let close = characters.firstIndex(of: "}") else {
          literal.append(c)
          continue
        }
        let name = String(characters[..<close])
        guard let field = PickField(rawValue: name) else {
          throw PickFormatError(
            "--format: no field {\(name)} (fields: \(fieldNames.joined(separator: ", ")); or --format json)")
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        literal = ""
        parts.append(.field(field))
        characters = characters[characters.index(after: close)...]
      default: literal.append(c)
      }
    }
    if !literal.isEmpty { parts.append(.text(literal)) }
    return .template(parts)
  }
}

/// What `--format` can print of a pick, in the JSON's order.
public enum PickField: String, CaseIterable, Sendable {
  case path, name, source, kind, taken
  case takenOrigin = "taken_origin"
  case camera, make, model, lens, width, height, bytes, latitude, longitude, place, city, region, country
  case countryCode = "country_code"
  case duration, live
  case liveVideo = "live_video"
  case copies, rating, label, rejected, url

  /// Every field's `"key":`, one after another, in `allCases`' order; field
  /// `n`'s runs from `jsonKeyStarts[n]` to `jsonKeyStarts[n + 1]`. One
  /// array, not one a key: a line then takes none of them (lines are
  /// written a share on each core at once, and every retain of a shared
  /// array is one more write the cores fight over).
  static let jsonKeys: [UInt8] = allCases.flatMap { Array("\"\($0.rawValue)\":".utf8) }
  static let jsonKeyStarts: [Int] = allCases.reduce(into: [0]) { $0.append($0.last! + $1.rawValue.utf8.count + 3) }

  /// Its place in `allCases` and in `PickRecord.values()`.
  var position: Int { Self.positions[self]! }
  private static let positions = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
}

/// A `--format` that names a field there is not.
public struct PickFormatError: Error, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}
