/// A video's length as players and phone galleries write it: `0:42`,
/// `12:05`, `1:03:10`.
public enum VideoLength {
  public static func text(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds > 0 else { return "0:00" }
    // A clip shorter than half a second still lasts: 0:01, as phones say.
    let whole = max(1, Int(min(seconds, 1e9).rounded()))
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }
}
