import Foundation

/// One pick's fields for `--format`: what its listing said when it was
/// picked, and what the library index knows of it when it has it.
struct PickRecord {
  var path: PathBytes?
  var url: String?
  var name: [UInt8]
  var details: PickedDetails?
  var indexed: IndexedRecord?

  /// The JSON's values, one a field, in `PickField`'s order; nil is null.
  func values() -> [JSONValue] {
    let metadata = indexed?.metadata
    let taken = metadata?.taken ?? details?.taken
    let isVideo = metadata?.isVideo ?? details?.isVideo ?? false
    let culling = (indexed?.metadata.culling).map { details?.culling ?? $0 } ?? details?.culling ?? Culling.none
    let size = metadata?.uprightSize ?? details?.listedSize
    func value(_ field: PickField) -> JSONValue {
      switch field {
      case .path: return path.map { .string(String(decoding: $0.bytes, as: UTF8.self)) } ?? .null
      case .name: return .string(String(decoding: name, as: UTF8.self))
      case .source: return details.map { .string($0.source) } ?? .null
      case .kind: return .string(isVideo ? "video" : "photo")
      case .taken: return taken.map(JSONValue.taken) ?? .null
      case .takenOrigin: return taken.map { .string(Self.originName($0.origin)) } ?? .null
      case .camera: return (metadata?.camera).map(JSONValue.string) ?? .null
      case .make: return Self.text(metadata?.make)
      case .model: return Self.text(metadata?.model)
      case .lens: return Self.text(metadata?.lens)
      case .width: return size.map { .int($0.width) } ?? .null
      case .height: return size.map { .int($0.height) } ?? .null
      case .bytes: return indexed.map { .int(Int($0.bytes)) } ?? .null
      case .latitude: return (metadata?.latitude).map(JSONValue.double) ?? .null
      case .longitude: return (metadata?.longitude).map(JSONValue.double) ?? .null
      case .place:
        // As a day header names it: the city, else the region, and the country.
        let place = [indexed?.city ?? indexed?.region, indexed?.country].compactMap { $0 }.filter { !$0.isEmpty }
        return place.isEmpty ? .null : .string(place.joined(separator: ", "))
      case .city: return Self.text(indexed?.city)
      case .region: return Self.text(indexed?.region)
      case .country: return Self.text(indexed?.country)
      case .countryCode: return Self.text(indexed?.countryCode)
      case .duration: return (metadata?.videoSeconds ?? details?.videoSeconds).map(JSONValue.double) ?? .null
      case .live: return .bool(indexed?.liveVideo != nil || details?.isLive == true)
      case .liveVideo:
        // The index knows the MOV; a photo it does not have is looked beside.
        return (indexed.map { $0.liveVideo } ?? path.flatMap(LivePhotos.video(beside:))).map {
          .string(String(decoding: $0.bytes, as: UTF8.self))
        } ?? .null
      case .copies:
        return .array(
          (indexed?.copies ?? details?.copies ?? []).map { .string(String(decoding: $0.bytes, as: UTF8.self)) })
      case .rating: return .int(max(culling.rating, 0))
      case .label: return culling.label.map { .string($0.name) } ?? .null
      case .rejected: return .bool(culling.isRejected)
      case .url: return url.map(JSONValue.string) ?? .null
      }
    }
    return PickField.allCases.map(value)
  }

  private static func text(_ text: String?) -> JSONValue {
    guard let text, !text.isEmpty else { return .null }
    return .string(text)
  }

  /// `2023-06-14T10:15:00+01:00`: the wall clock, with its offset when the
  /// file said it; a date alone when only the day is known.
  static func iso(taken: TakenDate) -> String {
    var out: [UInt8] = []
    writeISO(taken, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// `iso(taken:)` as bytes, digit by digit: strings made and joined cost
  /// more than the rest of a JSON line.
  static func writeISO(_ taken: TakenDate, into out: inout [UInt8]) {
    func digits(_ n: Int, _ count: Int) {
      var divisor = 1
      for _ in 1..<count { divisor *= 10 }
      // No date is before year 0; a year past 9999 keeps its digits.
      let n = max(0, n)
      while n / divisor >= 10 { divisor *= 10 }
      while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(n / divisor % 10))
        divisor /= 10
      }
    }
    let date = taken.date
    digits(date.year, 4)
    out.append(UInt8(ascii: "-"))
    digits(date.month, 2)
    out.append(UInt8(ascii: "-"))
    digits(date.day, 2)
    if taken.isDayOnly { return }
    let seconds = Int((taken.wallClock - Int64(taken.day) * TakenDate.millisecondsPerDay) / 1000)
    out.append(UInt8(ascii: "T"))
    digits(seconds / 3600, 2)
    out.append(UInt8(ascii: ":"))
    digits(seconds / 60 % 60, 2)
    out.append(UInt8(ascii: ":"))
    digits(seconds % 60, 2)
    if let offset = taken.offsetMinutes {
      out.append(UInt8(ascii: offset < 0 ? "-" : "+"))
      digits(abs(offset) / 60, 2)
      out.append(UInt8(ascii: ":"))
      digits(abs(offset) % 60, 2)
    }
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
  /// A date taken, written as ISO 8601 (`PickRecord.writeISO`).
  case taken(TakenDate)

  func write(into out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): out.append(contentsOf: String(value).utf8)
    case .double(let value):
      let text =
        value.isFinite ? (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)) : "null"
      out.append(contentsOf: text.utf8)
    case .string(let value): Self.quote(value, into: &out)
    case .taken(let taken):
      out.append(UInt8(ascii: "\""))
      PickRecord.writeISO(taken, into: &out)
      out.append(UInt8(ascii: "\""))
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        value.write(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
  }

  /// The template's text of the value: strings as they are, arrays by
  /// their count, null as nothing.
  var templateText: String {
    switch self {
    case .null: return ""
    case .string(let value): return value
    case .taken(let taken): return PickRecord.iso(taken: taken)
    case .array(let values): return String(values.count)
    default:
      var out: [UInt8] = []
      write(into: &out)
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// A JSON string: quotes, backslashes and control characters escaped,
  /// the rest as UTF-8 (a bad byte of a path decoded as U+FFFD already).
  static func quote(_ text: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most text needs no escape: copied whole.
    let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) else { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0..<0x20, 0x7f:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
