import Dispatch

/// Seconds on a clock that never goes back: for the delays and deadlines
/// of terminal input and output, never for dates.
package enum MonotonicClock {
  package static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
