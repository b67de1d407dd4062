import CImaging
import Foundation

/// The files beside a photo that date it or belong with it, found among its
/// folder's names: a Live Photo's MOV (`LivePhotos`);
/// an XMP sidecar (darktable's `photo.jpg.xmp`, Lightroom's and digiKam's
/// `photo.xmp`) and Google Takeout's JSON (`photo.jpg.json`, since 2024
/// `photo.jpg.supplemental-metadata.json`, either cut short when the name
/// is long, and `photo.jpg(1).json` for `photo(1).jpg`).
struct Sidecars: Sendable {
  struct Found: Hashable, Sendable {
    var xmp: [UInt8]?
    var takeout: [UInt8]?
    var liveVideo: [UInt8]?
    var isEmpty: Bool { xmp == nil && takeout == nil && liveVideo == nil }
  }

  /// Names of the folder's XMP files, by name lowercased.
  private var xmpNames: [[UInt8]: [UInt8]] = [:]
  /// Stems (lowercased, without the extension) that two photos share
  /// (`IMG_0001.CR2` and `IMG_0001.JPG`): Lightroom's `IMG_0001.xmp` is the
  /// raw's, no sidecar of the JPEG's.
  private var sharedStems: Set<[UInt8]> = []
  /// The folder's JSON files, without ".json".
  private var jsonStems: [[UInt8]] = []
  private var jsonByStem: Set<[UInt8]> = []
  /// The folder's MOV files by their stem.
  private var movies: [[UInt8]: [UInt8]] = [:]

  /// Takeout cuts a sidecar's name to this many characters before ".json".
  static let shortestCut = 46

  init(names: [[UInt8]]) {
    movies = LivePhotos.movies(among: names)
    var stems: Set<[UInt8]> = []
    for name in names {
      let lower = name.map(Self.lowercased)
      if lower.count > 4, lower.suffix(4).elementsEqual(".xmp".utf8) {
        xmpNames[lower] = name
      } else if lower.count > 5, lower.suffix(5).elementsEqual(".json".utf8) {
        let stem = Array(name.dropLast(5))
        jsonStems.append(stem)
        jsonByStem.insert(stem)
      } else if let stem = Self.stem(lower), PhotoFileTypes.isShown(name: name), !PhotoFileTypes.isVideo(name: name),
        !stems.insert(stem).inserted
      {
        sharedStems.insert(stem)
      }
    }
  }

  var isEmpty: Bool { xmpNames.isEmpty && jsonStems.isEmpty && movies.isEmpty }

  static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }

  /// A name lowercased without its extension; nil without one.
  static func stem(_ lower: [UInt8]) -> [UInt8]? {
    guard let dot = lower.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return nil }
    return Array(lower[..<dot])
  }

  /// Every XMP sidecar of `photo`, darktable's name (`IMG.CR2.xmp`)
  /// first, then Adobe's (`IMG.xmp`) unless another photo shares its stem.
  func xmpSidecars(of photo: [UInt8]) -> [[UInt8]] {
    let lower = photo.map(Self.lowercased)
    var names: [[UInt8]] = []
    if let name = xmpNames[lower + Array(".xmp".utf8)] { names.append(name) }
    if let stem = Self.stem(lower), !sharedStems.contains(stem), let name = xmpNames[stem + Array(".xmp".utf8)] {
      names.append(name)
    }
    return names
  }

  /// Whether Adobe's sidecar name would be shared by another photo.
  func sharesStem(_ photo: [UInt8]) -> Bool {
    Self.stem(photo.map(Self.lowercased)).map(sharedStems.contains) ?? false
  }

  func sidecars(of photo: [UInt8]) -> Found {
    guard !isEmpty else { return Found() }
    var found = Found()
    found.xmp = xmpSidecars(of: photo).first
    found.takeout = takeout(of: photo)
    found.liveVideo = LivePhotos.video(of: photo, among: movies)
    return found
  }

  /// Takeout's JSON for `photo`, by the forms its exports have had.
  private func takeout(of photo: [UInt8]) -> [UInt8]? {
    guard !jsonStems.isEmpty else { return nil }
    var names = [photo]
    // "photo(1).jpg" is described by "photo.jpg(1).json".
    if let dot = photo.lastIndex(of: UInt8(ascii: ".")), dot > 0, photo[dot - 1] == UInt8(ascii: ")"),
      let open = photo[..<dot].lastIndex(of: UInt8(ascii: "("))
    {
      let counter = Array(photo[open..<dot])
      names.append(Array(photo[..<open]) + Array(photo[dot...]) + counter)
    }
    let supplemental = Array(".supplemental-metadata".utf8)
    for name in names {
      if jsonByStem.contains(name) { return name + Array(".json".utf8) }
      if jsonByStem.contains(name + supplemental) { return name + supplemental + Array(".json".utf8) }
    }
    // Cut short: the name and as much of ".supplemental-metadata" as fit,
    // or the name itself cut.
    for stem in jsonStems where stem.count >= Self.shortestCut {
      if stem.count > photo.count, stem.starts(with: photo),
        supplemental.starts(with: stem[photo.count...])
      {
        return stem + Array(".json".utf8)
      }
      if stem.count < photo.count, photo.starts(with: stem) { return stem + Array(".json".utf8) }
    }
    return nil
  }
}

/// Reads the dates sidecars give.
enum SidecarDates {
  /// Sidecars are small; a larger file is no sidecar of ours.
  static let largest = 4 * 1024 * 1024

  static func xmp(_ data: [UInt8], latestDay: Int) -> TakenDate? {
    var out = [CChar](repeating: 0, count: 48)
    let found = data.withUnsafeBytes { raw in
      pk_xmp_date(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &out, out.count)
    }
    guard found == 1 else { return nil }
    let text = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return TakenDateParsing.xmp(text, latestDay: latestDay, origin: .xmpSidecar)
  }

  /// `photoTakenTime.timestamp` (UTC seconds, as a string or a number).
  /// What a Takeout JSON says: when (UTC seconds) and where (`geoData`,
  /// else `geoDataExif`; 0,0 is Google's "none").
  struct TakeoutRecord {
    var seconds: Int64?
    var position: (latitude: Double, longitude: Double)?

    /// The date on the clock where it was taken when the position is
    /// known (its own or `at`), else on this machine's, as before.
    func date(latestDay: Int, at other: (latitude: Double, longitude: Double)? = nil) -> TakenDate? {
      guard let seconds else { return nil }
      guard let place = other ?? position else {
        return TakenDateParsing.utcSeconds(seconds, latestDay: latestDay, origin: .takeout)
      }
      return TakenDateParsing.utcMoment(seconds, at: place, latestDay: latestDay, origin: .takeout)
    }
  }

  static func takeoutRecord(_ path: PathBytes) -> TakeoutRecord {
    guard let data = contents(path).map({ Data($0) }),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return TakeoutRecord() }
    var record = TakeoutRecord()
    if let time = json["photoTakenTime"] as? [String: Any] {
      switch time["timestamp"] {
      case let text as String: record.seconds = Int64(text)
      case let number as NSNumber: record.seconds = number.int64Value
      default: break
      }
    }
    for key in ["geoData", "geoDataExif"] {
      guard let geo = json[key] as? [String: Any],
        let latitude = (geo["latitude"] as? NSNumber)?.doubleValue,
        let longitude = (geo["longitude"] as? NSNumber)?.doubleValue,
        PlaceFinder.isPosition(latitude: latitude, longitude: longitude)
      else { continue }
      record.position = (latitude, longitude)
      break
    }
    return record
  }

  static func contents(_ path: PathBytes) -> [UInt8]? {
    FileIO.readSmallFile(path, limit: largest)
  }
}
