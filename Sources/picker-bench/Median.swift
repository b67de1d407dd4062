/// The middle of the figures measured (the upper middle of an even count):
/// what the benchmarks print, as one slow or lucky run must not move it.
/// Nil when nothing was measured.
func median(_ values: [Double]) -> Double? {
  values.isEmpty ? nil : values.sorted()[values.count / 2]
}
