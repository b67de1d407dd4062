import CImaging
import CNetworking

/// The libraries this binary decodes, renders and fetches with, one
/// "name version" line each (`picker-tui --version --verbose`).
public enum LibraryVersions {
  public static var lines: [String] {
    var buffer = [CChar](repeating: 0, count: 2048)
    let length = pk_imaging_versions(&buffer, buffer.count)
    let imaging = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // libtiff's own first line reads "LIBTIFF, Version 4.5.0".
    var lines = imaging.split(separator: "\n").map {
      $0.hasPrefix("LIBTIFF, Version ") ? "libtiff " + $0.dropFirst("LIBTIFF, Version ".count) : String($0)
    }
    lines.append(String(cString: pk_http_library_version()).replacingOccurrences(of: "/", with: " "))
    lines.append("libxml2 " + xmlVersion)
    return lines
  }

  /// libxml2 says "21004" for 2.10.4.
  private static var xmlVersion: String {
    let raw = String(cString: pk_xml_library_version())
    guard let number = Int(raw) else { return raw }
    return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
  }
}
