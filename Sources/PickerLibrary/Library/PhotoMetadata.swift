import CImaging

/// The one metadata record of a photo or video: what the header reader
/// (photo_header.h, or LibRaw for a camera RAW, into the same C struct)
/// says of it, and the date chosen for it (`PhotoMetadataReader`). The
/// library index keeps it, the facts panel shows it, the compare panes
/// quote it.
///
/// A new field is three edits: its C field and its reader (photo_header.h
/// and the reader that fills it), then here a property, a line in
/// `take(_:)`, and a row of `fields`, which makes its index column (the
/// schema, the insert, the schema's version), its facts row, or both.
public struct PhotoMetadata: Hashable, Sendable {
  public var taken: TakenDate
  public var width = 0
  public var height = 0
  /// EXIF 1-8, 0 when not given.
  public var orientation = 0
  public var make = ""
  public var model = ""
  public var lens = ""
  public var latitude: Double?
  public var longitude: Double?
  /// The burst the shot belongs to: Apple's BurstUUID, else a burst id in
  /// the file name (`BurstName`); nil for a shot alone.
  public var burstID: String?
  /// The date that would come first but is ahead of the clock ("after
  /// tomorrow": a camera's clock set days ahead, a zone far ahead of this
  /// machine's): kept, and taken once the clock has passed it.
  public var refused: TakenDate?
  /// A video's length in seconds (nil for a photo, or a video whose header
  /// does not say).
  public var videoSeconds: Double?
  /// A video, by its header or its name: it never stacks (no signature,
  /// no burst by name).
  public var isVideo = false
  /// Apple's content identifier: a Live Photo's still and MOV share it.
  public var contentID: String?
  /// The exposure, as the facts show it (not indexed).
  public var fNumber: Double?
  public var exposureSeconds: Double?
  public var iso: Int?
  public var focalLength: Double?
  /// A video's codec as the file names it ("avc1", "vp09") and its frame
  /// rate (not indexed).
  public var videoCodec: String?
  public var frameRate: Double?
  /// Stars, reject and colour label, from the photo's XMP or its sidecar's
  /// (`XMPCulling.chosen`), and where they came from, for the facts.
  public var culling = Culling.none
  public var cullingOrigin: String?

  public init(taken: TakenDate) { self.taken = taken }

  /// A record with no date (a facts panel of a listed remote photo).
  public init() { self.init(taken: TakenDate(wallClock: 0, origin: .listing)) }

  /// "Canon EOS R5": many models already start with the make.
  public var camera: String? {
    let camera = model.hasPrefix(make) || make.isEmpty ? model : make + " " + model
    return camera.isEmpty ? nil : camera
  }

  /// The stored size as pixels, when known.
  public var pixelSize: PixelSize? {
    get { width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil }
    set {
      width = newValue?.width ?? 0
      height = newValue?.height ?? 0
    }
  }

  /// The size as shown: a quarter turn (EXIF 5-8) swaps its sides.
  public var uprightSize: PixelSize? {
    guard let size = pixelSize else { return nil }
    return (5...8).contains(orientation) ? PixelSize(width: size.height, height: size.width) : size
  }

  /// What the header says, field by field (the date is chosen apart, from
  /// every origin in turn: `PhotoMetadataReader`).
  mutating func take(_ header: pk_photo_header) {
    var header = header
    width = Int(header.width)
    height = Int(header.height)
    orientation = Int(header.orientation)
    make = Self.text(&header.make)
    model = Self.text(&header.model)
    lens = Self.text(&header.lens)
    let content = Self.text(&header.content_id)
    if !content.isEmpty { contentID = content }
    let burst = Self.text(&header.burst_id)
    if !burst.isEmpty { burstID = "apple-" + burst }
    if header.has_gps != 0 {
      latitude = header.latitude
      longitude = header.longitude
    }
    fNumber = header.f_number > 0 ? header.f_number : nil
    exposureSeconds = header.exposure_seconds > 0 ? header.exposure_seconds : nil
    iso = header.iso > 0 ? Int(header.iso) : nil
    focalLength = header.focal_length_mm > 0 ? header.focal_length_mm : nil
    if header.is_video != 0 {
      if header.duration_seconds > 0 { videoSeconds = header.duration_seconds }
      let codec = Self.text(&header.video_codec)
      if !codec.isEmpty { videoCodec = codec }
      if header.frame_rate > 0 { frameRate = header.frame_rate }
      // A phone's portrait clip is stored landscape with a quarter turn:
      // as an EXIF orientation, the index's size and aspect come out right.
      orientation = Int(pk_video_orientation(header.rotation))
    }
  }

  /// A fixed-size C string field as Swift text, cut at its NUL or its
  /// size. What is not printable ASCII reads as "?", as the header reader
  /// writes it: LibRaw's strings and a helper's answer come unchecked, and
  /// they end up on a terminal.
  static func text<T>(_ field: inout T) -> String {
    withUnsafeBytes(of: &field) { raw in
      let bytes = raw.prefix { $0 != 0 }
      // The header reader's are clean already: no copy for them.
      if bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
      return String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
  }
}

/// One field of the record: its column in the library index (declaration
/// and the value written), its row in the facts panel (label and text), or
/// both. Rows come in the table's order.
public struct MetadataField: Sendable {
  public var column: String?
  var declaration = ""
  var value: (@Sendable (PhotoMetadata) -> Any?)?
  public var label: String?
  var text: (@Sendable (PhotoFacts) -> String?)?

  /// A column of the index.
  static func column(
    _ name: String, _ declaration: String, _ value: @escaping @Sendable (PhotoMetadata) -> Any?
  ) -> MetadataField {
    MetadataField(column: name, declaration: declaration, value: value)
  }

  /// A row of the facts panel.
  static func row(_ label: String, _ text: @escaping @Sendable (PhotoFacts) -> String?) -> MetadataField {
    MetadataField(label: label, text: text)
  }
}

extension PhotoMetadata {
  /// Every field, in the facts panel's order. A row may come from the
  /// facts' own reading (the file's size and format, the date with its
  /// origin, the place's name).
  public static let fields: [MetadataField] = [
    .column("taken", "INTEGER NOT NULL") { $0.taken.wallClock },
    .column("origin", "INTEGER NOT NULL") { Int64($0.taken.origin.rawValue) },
    .column("offset", "INTEGER") { $0.taken.offsetMinutes },
    // For a moment recorded in UTC (a clip's movie header), whose clock it
    // was put on (LocalTime.Source.code); NULL for a camera's own clock.
    .column("zone", "INTEGER") { $0.taken.zone.map { Int64($0.code) } },
    .column("width", "INTEGER NOT NULL DEFAULT 0") { Int64($0.width) },
    .column("height", "INTEGER NOT NULL DEFAULT 0") { Int64($0.height) },
    .row("Size") { facts in
      facts.metadata.pixelSize.map { size in
        // Sizes come from files and listings: no integer product to overflow.
        let megapixels = Double(size.width) * Double(size.height) / 1e6
        return "\(size.width) × \(size.height) (\(PhotoFacts.decimal(megapixels, digits: 1)) MP)"
      }
    },
    .row("File") { $0.fileSize.map(PhotoFacts.bytes) },
    .row("Format") { $0.format },
    .row("Length") { $0.metadata.videoSeconds.map(VideoLength.text) },
    .row("Codec") { $0.metadata.videoCodec.map(PhotoFacts.codecName) },
    .row("Frame rate") { facts in
      facts.metadata.frameRate.map { PhotoFacts.decimal($0, digits: $0 == $0.rounded() ? 0 : 2) + " fps" }
    },
    .row("Taken") { $0.dateTaken },
    .column("orientation", "INTEGER NOT NULL DEFAULT 0") { Int64($0.orientation) },
    .column("make", "TEXT") { $0.make.isEmpty ? nil : $0.make },
    .column("model", "TEXT") { $0.model.isEmpty ? nil : $0.model },
    .row("Camera") { $0.metadata.camera },
    .column("lens", "TEXT") { $0.lens.isEmpty ? nil : $0.lens },
    .row("Lens") { $0.metadata.lens.isEmpty ? nil : $0.metadata.lens },
    .row("Aperture") { $0.metadata.fNumber.map { "f/" + PhotoFacts.decimal($0, digits: 1) } },
    .row("Exposure") { $0.metadata.exposureSeconds.map(PhotoFacts.exposure) },
    .row("ISO") { $0.metadata.iso.map(String.init) },
    .row("Focal") { $0.metadata.focalLength.map { PhotoFacts.decimal($0, digits: 0) + " mm" } },
    .row("Place") { $0.place },
    .column("latitude", "REAL") { $0.latitude },
    .column("longitude", "REAL") { $0.longitude },
    .row("GPS") { facts in
      guard let latitude = facts.metadata.latitude, let longitude = facts.metadata.longitude else { return nil }
      return PhotoFacts.decimal(latitude, digits: 5) + ", " + PhotoFacts.decimal(longitude, digits: 5)
    },
    .row("Orientation") { facts in
      let orientation = facts.metadata.orientation
      return (2...8).contains(orientation) ? PhotoFacts.orientationName(orientation) : nil
    },
    // The burst the camera says the shot is part of.
    .column("burst", "TEXT") { $0.burstID },
    // A date ahead of the clock when read: taken, without reading the
    // file, by the first scan after it has passed.
    .column("refused", "INTEGER") { $0.refused?.wallClock },
    .column("refused_origin", "INTEGER") { $0.refused?.origin.rawValue },
    .column("refused_offset", "INTEGER") { $0.refused?.offsetMinutes },
    // A video's length in seconds, 0 when its header does not say; NULL
    // for a photo. Videos never stack (SignatureReader).
    .column("duration", "REAL") { $0.isVideo ? $0.videoSeconds ?? 0 : nil },
    // Apple's content identifier (a Live Photo's still and MOV share it).
    .column("content_id", "TEXT") { $0.contentID },
    // xmp:Rating (−1 rejected, 0 unrated) and the colour label (ColorLabel).
    .column("rating", "INTEGER NOT NULL DEFAULT 0") { Int64($0.culling.rating) },
    .column("label", "INTEGER") { $0.culling.label.map { Int64($0.rawValue) } },
    .row("Rating") { facts in
      guard let summary = facts.metadata.culling.summary else { return nil }
      return summary + (facts.metadata.cullingOrigin.map { " (\($0))" } ?? "")
    },
  ]

  /// The index's columns of the record, in the table's order.
  static let columns = fields.filter { $0.column != nil }

  /// The record's values for `columns`, in order.
  func columnValues() -> [Any?] { Self.columns.map { $0.value!(self) } }
}
