import Foundation

/// The places table the picker ships, found where it is installed or in a
/// checkout: `PICKER_TUI_PLACES` when set, else beside the binary
/// (`PREFIX/bin/picker-tui` → `PREFIX/share/picker-tui/places.bin`), else
/// `Resources/places.bin` in a folder above it (a build inside the
/// repository). Opened once, when a position is first named.
public enum PlaceData {
  public static let finder: PlaceFinder? = found.map { PlaceFinder(table: $0.table) }

  /// Where the table was found: its zones (`zones.bin`) lie beside it.
  public static var foundPath: String? { found?.path }

  private static let found: (table: PlaceTable, path: String)? = {
    let environment = ProcessInfo.processInfo.environment
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments.first ?? ""
    for path in candidates(executable: executable, override: environment["PICKER_TUI_PLACES"]) {
      if let table = PlaceTable(path: path) { return (table, path) }
    }
    return nil
  }()

  /// The config's `[places]`, set once at start (`use(_:)`) before any
  /// position is named.
  private static let configured = ConfiguredCorrections()

  private final class ConfiguredCorrections: @unchecked Sendable {
    let lock = NSLock()
    var corrections = PlaceCorrections()
  }

  public static func use(_ corrections: PlaceCorrections) {
    configured.lock.withLock { configured.corrections = corrections }
  }

  /// The table with the config's corrections; nil without a table.
  public static var namer: PlaceNamer? {
    guard let finder else { return nil }
    return PlaceNamer(finder: finder, corrections: configured.lock.withLock { configured.corrections })
  }

  /// Where the table may be, in the order looked at.
  static func candidates(executable: String, override: String?) -> [String] {
    if let override, !override.isEmpty { return [override] }
    var paths: [String] = []
    var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
    paths.append(folder.deletingLastPathComponent().appendingPathComponent("share/picker-tui/places.bin").path)
    for _ in 0..<5 {
      paths.append(folder.appendingPathComponent("Resources/places.bin").path)
      folder = folder.deletingLastPathComponent()
    }
    return paths
  }

  /// `--version --verbose`'s line: where the names come from.
  public static var versionLine: String {
    guard let finder else { return "places: no table found (names of places are not shown)" }
    return "places: GeoNames (CC BY 4.0, geonames.org), \(finder.table.count) places"
  }
}
