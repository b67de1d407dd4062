import Foundation

/// What the preview's panel says about a photo: its name, the file's size
/// and format, the metadata record (`PhotoMetadata`), the date taken with
/// its origin, and the place's name. Its rows are `PhotoMetadata.fields`'.
public struct PhotoFacts: Hashable, Sendable {
  public var name: String
  /// Still being read.
  public var isLoading = false
  public var fileSize: Int64?
  public var format: String?
  public var metadata = PhotoMetadata()
  /// "2024-07-01 18:30:00 (EXIF)": the date and where it came from.
  public var dateTaken: String?
  /// Where the position is: "Lisbon, Lisbon, Portugal" (PlaceData).
  public var place: String?
  /// Its shortest name, for the compare panes: the town, else the country.
  public var placeName: String?
  /// Why the file could not be read.
  public var error: String?

  public init(name: String, isLoading: Bool = false) {
    self.name = name
    self.isLoading = isLoading
  }

  /// The stored size, which the loupe and compare scale by.
  public var pixelSize: PixelSize? {
    get { metadata.pixelSize }
    set { metadata.pixelSize = newValue }
  }

  /// The panel's rows, label and value, only for what is known.
  public var rows: [(label: String, value: String)] {
    var rows: [(String, String)] = [("Name", name)]
    if isLoading { return rows + [("", "reading…")] }
    if let error { return rows + [("Error", error)] }
    for field in PhotoMetadata.fields {
      guard let label = field.label, let value = field.text?(self) else { continue }
      rows.append((label, value))
    }
    return rows
  }

  /// The codec's common name, with the file's own code: "HEVC (hvc1)".
  /// MP4's codes, and Matroska's CodecIDs by the same codes (vp08, mp2v,
  /// theo...); AVI's fourccs ("H264", "XVID", "MJPG") in either case.
  static func codecName(_ code: String) -> String {
    let names = [
      "avc1": "H.264", "avc3": "H.264", "hvc1": "HEVC", "hev1": "HEVC", "mp4v": "MPEG-4 Part 2", "av01": "AV1",
      "vp09": "VP9", "vp08": "VP8", "vvc1": "H.266", "apcn": "ProRes", "apch": "ProRes", "apcs": "ProRes",
      "apco": "ProRes", "ap4h": "ProRes", "jpeg": "Motion JPEG", "mjpg": "Motion JPEG", "mp2v": "MPEG-2",
      "mp1v": "MPEG-1", "theo": "Theora", "ffv1": "FFV1", "drac": "Dirac",
      // AVI's fourccs, by their lowercase.
      "h264": "H.264", "x264": "H.264", "hevc": "HEVC", "h265": "HEVC", "xvid": "MPEG-4 Part 2",
      "divx": "MPEG-4 Part 2", "dx50": "MPEG-4 Part 2", "fmp4": "MPEG-4 Part 2", "mp43": "MS MPEG-4 v3",
      "div3": "MS MPEG-4 v3", "dvsd": "DV", "mpg2": "MPEG-2", "vp80": "VP8", "vp90": "VP9",
    ]
    return (names[code] ?? names[code.lowercased()]).map { "\($0) (\(code))" } ?? code
  }

  package static func decimal(_ value: Double, digits: Int) -> String { String(format: "%.\(digits)f", value) }

  package static func bytes(_ count: Int64) -> String {
    if count >= 1 << 20 { return decimal(Double(count) / Double(1 << 20), digits: 1) + " MB" }
    if count >= 1 << 10 { return decimal(Double(count) / Double(1 << 10), digits: 0) + " KB" }
    return "\(count) bytes"
  }

  /// 1/250 s, or 2.5 s.
  package static func exposure(_ seconds: Double) -> String {
    if seconds > 0 && seconds < 1 { return "1/\(Int((1 / seconds).rounded())) s" }
    return decimal(seconds, digits: 1) + " s"
  }

  static func orientationName(_ value: Int) -> String {
    switch value {
    case 2: return "mirrored"
    case 3: return "rotated 180°"
    case 4: return "mirrored, upside down"
    case 5: return "mirrored, rotated 90° CW"
    case 6: return "rotated 90° CW"
    case 7: return "mirrored, rotated 90° CCW"
    case 8: return "rotated 90° CCW"
    default: return "normal"
    }
  }
}
