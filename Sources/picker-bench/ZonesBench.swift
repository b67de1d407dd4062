import ArgumentParser
import Foundation
import PickerCore

/// Positions to local time on one core, as a clip recorded in UTC is put
/// on the clock where it was shot: the zones table opened (mapped), then N
/// positions looked up, half near a place and half anywhere (mostly sea:
/// the longitude's zone), each with its offset on a date of the last 30
/// years.
struct ZonesBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "zones", abstract: "Local-time lookups per second, the zones table's load time and size.")

  @Argument(help: "The places table (Resources/places.bin); zones.bin is read beside it.")
  var table: String

  @Option(help: "Positions to look up.")
  var positions = 100_000

  @Option(help: "Timed runs; medians are printed.")
  var runs = 3

  func run() throws {
    let zonesPath = URL(fileURLWithPath: table).deletingLastPathComponent().appendingPathComponent("zones.bin").path
    guard let places = PlaceTable(path: table) else {
      throw BenchExit(code: 2, message: "not a places table: \(table)")
    }
    let finder = PlaceFinder(table: places)
    var loads: [Double] = []
    var lookups: [Double] = []
    var onLand = 0
    for _ in 0..<max(1, runs) {
      let begin = DispatchTime.now().uptimeNanoseconds
      guard let zones = ZoneTable(path: zonesPath), zones.fits(places) else {
        throw BenchExit(code: 2, message: "no zones table fitting \(table) at \(zonesPath)")
      }
      loads.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
      var generator = SplitMix(seed: 7)
      let points = (0..<positions).map { index -> (Double, Double, Int64) in
        let when = 946_684_800 + Int64(generator.next() % (30 * 365 * 86_400))
        if index % 2 == 0 {
          let near = places.entry(Int(generator.next() % UInt64(places.count)))
          return (near.latitude + generator.unit() * 0.2 - 0.1, near.longitude + generator.unit() * 0.2 - 0.1, when)
        }
        return (generator.unit() * 180 - 90, generator.unit() * 360 - 180, when)
      }
      let start = DispatchTime.now().uptimeNanoseconds
      onLand = 0
      for (latitude, longitude, when) in points {
        if case .position? = LocalTime.offset(
          latitude: latitude, longitude: longitude, utcSeconds: when, finder: finder, zones: zones)?.source
        {
          onLand += 1
        }
      }
      lookups.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let seconds = median(lookups) ?? 0
    let size = (try? FileManager.default.attributesOfItem(atPath: zonesPath)[.size] as? Int) ?? 0
    print(
      "zones table:         \(zonesPath), \(size) bytes (load, mapped: median "
        + "\(String(format: "%.2f", median(loads) ?? 0)) ms)")
    print(
      "positions timed:     \(positions) in \(String(format: "%.3f", seconds)) s = "
        + "\(Int(Double(positions) / max(seconds, 1e-9))) /s (median of \(runs)); \(onLand) in a town's zone")
    print("peak RSS:            \(FirstPaintBench.peakResidentKilobytes() / 1024) MB")
  }
}
