import Foundation

/// One pick's fields for `--format`: what its listing said when it was
/// picked, and what the library index knows of it when it has it.
struct PickRecord {
  var path: PathBytes?
  var url: String?
  var name: [UInt8]
  var details: PickedDetails?
  var indexed: IndexedRecord?

  /// JSON values by field name (`PickFormat.fieldNames`); nil is null.
  func values() -> [String: JSONValue] {
    let metadata = indexed?.metadata
    let taken = metadata?.taken ?? details?.taken
    let isVideo = metadata?.isVideo ?? details?.isVideo ?? false
    let culling = (indexed?.metadata.culling).map { details?.culling ?? $0 } ?? details?.culling ?? Culling.none
    let size = metadata?.uprightSize ?? details?.listedSize
    var values: [String: JSONValue] = [
      "path": path.map { .string(String(decoding: $0.bytes, as: UTF8.self)) } ?? .null,
      "name": .string(String(decoding: name, as: UTF8.self)),
      "source": details.map { .string($0.source) } ?? .null,
      "kind": .string(isVideo ? "video" : "photo"),
      "taken": taken.map { .string(Self.iso(taken: $0)) } ?? .null,
      "taken_origin": taken.map { .string(Self.originName($0.origin)) } ?? .null,
      "camera": (metadata?.camera).map(JSONValue.string) ?? .null,
      "make": Self.text(metadata?.make),
      "model": Self.text(metadata?.model),
      "lens": Self.text(metadata?.lens),
      "width": size.map { .int($0.width) } ?? .null,
      "height": size.map { .int($0.height) } ?? .null,
      "bytes": indexed.map { .int(Int($0.bytes)) } ?? .null,
      "latitude": (metadata?.latitude).map(JSONValue.double) ?? .null,
      "longitude": (metadata?.longitude).map(JSONValue.double) ?? .null,
      "city": Self.text(indexed?.city),
      "region": Self.text(indexed?.region),
      "country": Self.text(indexed?.country),
      "country_code": Self.text(indexed?.countryCode),
      "duration": (metadata?.videoSeconds ?? details?.videoSeconds).map(JSONValue.double) ?? .null,
      "live": .bool(indexed?.liveVideo != nil || details?.isLive == true),
      // The index knows the MOV; a photo it does not have is looked beside.
      "live_video": (indexed.map { $0.liveVideo } ?? path.flatMap(LivePhotos.video(beside:))).map {
        .string(String(decoding: $0.bytes, as: UTF8.self))
      } ?? .null,
      "copies": .array(
        (indexed?.copies ?? details?.copies ?? []).map { .string(String(decoding: $0.bytes, as: UTF8.self)) }),
      "rating": .int(max(culling.rating, 0)),
      "label": culling.label.map { .string($0.name) } ?? .null,
      "rejected": .bool(culling.isRejected),
      "url": url.map(JSONValue.string) ?? .null,
    ]
    // The place as a day header names it: the city, else the region, and the country.
    let place = [indexed?.city ?? indexed?.region, indexed?.country].compactMap { $0 }.filter { !$0.isEmpty }
    values["place"] = place.isEmpty ? .null : .string(place.joined(separator: ", "))
    return values
  }

  private static func text(_ text: String?) -> JSONValue {
    guard let text, !text.isEmpty else { return .null }
    return .string(text)
  }

  /// `2023-06-14T10:15:00+01:00`: the wall clock, with its offset when the
  /// file said it; a date alone when only the day is known.
  static func iso(taken: TakenDate) -> String {
    let date = taken.date
    // By hand: String(format:) cost more than the rest of a line.
    func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
    let year = String(date.year)
    var text =
      String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(date.month) + "-" + two(date.day)
    if taken.isDayOnly { return text }
    let milliseconds = taken.wallClock - Int64(taken.day) * TakenDate.millisecondsPerDay
    let seconds = Int(milliseconds / 1000)
    text += "T" + two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60)
    if let offset = taken.offsetMinutes {
      text += (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + ":" + two(abs(offset) % 60)
    }
    return text
  }

  static func originName(_ origin: TakenDate.Origin) -> String {
    switch origin {
    case .exif: "exif"
    case .fileName: "file-name"
    case .fileTime: "file-time"
    case .listing: "listing"
    case .xmp: "xmp"
    case .xmpSidecar: "xmp-sidecar"
    case .iptc: "iptc"
    case .takeout: "takeout"
    case .quicktime: "video-header"
    }
  }
}

/// A JSON value, written by hand: the output is one object a line, and
/// paths need not be valid UTF-8 (their bad bytes print as U+FFFD).
enum JSONValue: Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])

  func write(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value):
      out +=
        value.isFinite ? (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)) : "null"
    case .string(let value): Self.quote(value, into: &out)
    case .array(let values):
      out += "["
      for (index, value) in values.enumerated() {
        if index > 0 { out += "," }
        value.write(into: &out)
      }
      out += "]"
    }
  }

  /// The template's text of the value: strings as they are, arrays by
  /// their count, null as nothing.
  var templateText: String {
    switch self {
    case .null: return ""
    case .string(let value): return value
    case .array(let values): return String(values.count)
    default:
      var out = ""
      write(into: &out)
      return out
    }
  }

  static func quote(_ text: String, into out: inout String) {
    out += "\""
    // Most text needs no escape: appended whole.
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
      out += text
      out += "\""
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
