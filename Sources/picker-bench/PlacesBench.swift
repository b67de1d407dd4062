import ArgumentParser
import Foundation
import PickerCore

/// Positions to places on one core: the table opened (mapped), then N
/// positions named, half of them near a place (as photos are) and half
/// anywhere (mostly sea, where the search finds nothing or only a country).
struct PlacesBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "places", abstract: "Positions named per second, the places table's load time and memory.")

  @Argument(help: "The places table (Resources/places.bin).")
  var table: String

  @Option(help: "Positions to name.")
  var positions = 100_000

  @Option(help: "Timed runs; medians are printed.")
  var runs = 3

  func run() throws {
    var loads: [Double] = []
    var lookups: [Double] = []
    var named = 0
    for _ in 0..<max(1, runs) {
      let begin = DispatchTime.now().uptimeNanoseconds
      guard let places = PlaceTable(path: table) else {
        throw BenchExit(code: 2, message: "not a places table: \(table)")
      }
      loads.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
      let finder = PlaceFinder(table: places)
      var generator = SplitMix(seed: 42)
      let points = (0..<positions).map { index -> (Double, Double) in
        if index % 2 == 0 {
          let near = places.entry(Int(generator.next() % UInt64(places.count)))
          return (near.latitude + generator.unit() * 0.2 - 0.1, near.longitude + generator.unit() * 0.2 - 0.1)
        }
        return (generator.unit() * 180 - 90, generator.unit() * 360 - 180)
      }
      let start = DispatchTime.now().uptimeNanoseconds
      named = 0
      for (latitude, longitude) in points where finder.place(latitude: latitude, longitude: longitude) != nil {
        named += 1
      }
      lookups.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let seconds = median(lookups) ?? 0
    print("table:               \(table) (load, mapped: median \(String(format: "%.2f", median(loads) ?? 0)) ms)")
    print(
      "positions named:     \(positions) in \(String(format: "%.3f", seconds)) s = "
        + "\(Int(Double(positions) / max(seconds, 1e-9))) /s (median of \(runs)); \(named) got a place")
    print("peak RSS:            \(FirstPaintBench.peakResidentKilobytes() / 1024) MB")
  }
}

/// A small seeded generator, so every run names the same positions.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
