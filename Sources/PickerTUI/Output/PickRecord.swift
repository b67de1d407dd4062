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
  func values() -> [PickValue] {
    var values: [PickValue] = []
    values.reserveCapacity(PickField.allCases.count)
    forEachValue { values.append($1) }
    return values
  }

  /// The JSON line's object, written straight as bytes: no value kept,
  /// no string made of a path or a name.
  func writeJSON(into line: inout [UInt8]) {
    line.append(UInt8(ascii: "{"))
    // The fields come in `allCases`' order: their keys by that position.
    var position = 0
    PickField.jsonKeys.withUnsafeBufferPointer { keys in
      PickField.jsonKeyStarts.withUnsafeBufferPointer { starts in
        forEachValue { _, value in
          if position > 0 { line.append(UInt8(ascii: ",")) }
          line.append(contentsOf: UnsafeBufferPointer(rebasing: keys[starts[position]..<starts[position + 1]]))
          value.write(into: &line)
          position += 1
        }
      }
    }
    line.append(UInt8(ascii: "}"))
  }

  /// Each field's value in `PickField`'s order: what the index knows
  /// first, what the listing said else.
  private func forEachValue(_ body: (PickField, PickValue) -> Void) {
    // Read through `indexed` in place: a copy of the metadata would take
    // each of its strings once more.
    let taken = indexed?.metadata.taken ?? details?.taken
    let isVideo = indexed?.metadata.isVideo ?? details?.isVideo ?? false
    let culling =
      (indexed?.metadata.culling).map { details?.culling ?? $0 } ?? details?.culling ?? Culling.none
    let size = indexed?.metadata.uprightSize ?? details?.listedSize
    for field in PickField.allCases {
      let value: PickValue
      switch field {
      case .path: value = path.map { .bytes($0.bytes) } ?? .null
      case .name: value = .bytes(name)
      case .source: value = details.map { .text($0.source) } ?? .null
      case .kind: value = .text(isVideo ? "video" : "photo")
      case .taken: value = taken.map(PickValue.taken) ?? .null
      case .takenOrigin: value = taken.map { .text(Self.originName($0.origin)) } ?? .null
      case .camera: value = (indexed?.metadata.camera).map(PickValue.text) ?? .null
      case .make: value = Self.text(indexed?.metadata.make)
      case .model: value = Self.text(indexed?.metadata.model)
      case .lens: value = Self.text(indexed?.metadata.lens)
      case .width: value = size.map { .int($0.width) } ?? .null
      case .height: value = size.map { .int($0.height) } ?? .null
      case .bytes: value = indexed.map { .int(Int($0.bytes)) } ?? .null
      case .latitude: value = (indexed?.metadata.latitude).map(PickValue.double) ?? .null
      case .longitude: value = (indexed?.metadata.longitude).map(PickValue.double) ?? .null
      case .place: value = Self.place(indexed)
      case .city: value = Self.text(indexed?.city)
      case .region: value = Self.text(indexed?.region)
      case .country: value = Self.text(indexed?.country)
      case .countryCode: value = Self.text(indexed?.countryCode)
      case .duration: value = (indexed?.metadata.videoSeconds ?? details?.videoSeconds).map(PickValue.double) ?? .null
      case .live: value = .bool(indexed?.liveVideo != nil || details?.isLive == true)
      case .liveVideo:
        // The index knows the MOV; a photo it does not have is looked beside.
        value =
          (indexed.map { $0.liveVideo } ?? path.flatMap(LivePhotos.video(beside:))).map { .bytes($0.bytes) } ?? .null
      case .copies: value = .paths(indexed?.copies ?? details?.copies ?? [])
      case .rating: value = .int(max(culling.rating, 0))
      case .label: value = culling.label.map { .text($0.name) } ?? .null
      case .rejected: value = .bool(culling.isRejected)
      case .url: value = url.map(PickValue.text) ?? .null
      }
      body(field, value)
    }
  }

  /// As a day header names it: the city, else the region, and the country.
  private static func place(_ indexed: IndexedRecord?) -> PickValue {
    let local = [indexed?.city, indexed?.region].lazy.compactMap { $0 }.first { !$0.isEmpty }
    let country = indexed?.country.flatMap { $0.isEmpty ? nil : $0 }
    switch (local, country) {
    case (let local?, let country?): return .text(local + ", " + country)
    case (let one?, nil), (nil, let one?): return .text(one)
    case (nil, nil): return .null
    }
  }

  private static func text(_ text: String?) -> PickValue {
    guard let text, !text.isEmpty else { return .null }
    return .text(text)
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

/// A field's value, written by hand: the output is one object a line,
/// and paths need not be valid UTF-8 (their bad bytes print as U+FFFD).
enum PickValue: Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case text(String)
  /// A path or a name as the file system has it.
  case bytes([UInt8])
  /// A date taken, written as ISO 8601 (`PickRecord.writeISO`).
  case taken(TakenDate)
  /// Paths, as an array (copies).
  case paths([PathBytes])

  func write(into out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): Self.writeInteger(value, into: &out)
    case .double(let value):
      if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
        Self.writeInteger(Int(value), into: &out)
      } else {
        out.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
      }
    case .text(let value): Self.quote(value, into: &out)
    case .bytes(let bytes): Self.quote(bytes: bytes, into: &out)
    case .taken(let taken):
      out.append(UInt8(ascii: "\""))
      PickRecord.writeISO(taken, into: &out)
      out.append(UInt8(ascii: "\""))
    case .paths(let paths):
      out.append(UInt8(ascii: "["))
      for (index, path) in paths.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.quote(bytes: path.bytes, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
  }

  /// The template's text of the value: strings as they are, arrays by
  /// their count, null as nothing.
  var templateText: String {
    switch self {
    case .null: return ""
    case .text(let value): return value
    case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
    case .taken(let taken): return PickRecord.iso(taken: taken)
    case .paths(let paths): return String(paths.count)
    default:
      var out: [UInt8] = []
      write(into: &out)
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// Digits without a String made for them.
  static func writeInteger(_ value: Int, into out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    let magnitude = value.magnitude
    var divisor: UInt = 1
    while magnitude / divisor >= 10 { divisor *= 10 }
    while divisor > 0 {
      out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
      divisor /= 10
    }
  }

  /// A JSON string of text: quotes, backslashes and control characters
  /// escaped, the rest as UTF-8.
  static func quote(_ text: String, into out: inout [UInt8]) {
    var text = text
    text.withUTF8 { quote(utf8: $0, into: &out) }
  }

  /// A JSON string of a path's bytes: valid UTF-8 as it is, a bad byte as
  /// U+FFFD.
  static func quote(bytes: [UInt8], into out: inout [UInt8]) {
    // ASCII (most paths) is valid as it is; the rest is checked and repaired.
    if bytes.allSatisfy({ $0 < 0x80 }) {
      bytes.withUnsafeBufferPointer { quote(utf8: $0, into: &out) }
    } else {
      quote(String(decoding: bytes, as: UTF8.self), into: &out)
    }
  }

  /// Valid UTF-8, quoted: copied whole when nothing needs an escape.
  private static func quote(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
      out.append(contentsOf: bytes)
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in bytes {
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
