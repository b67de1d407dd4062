/// An answer the terminal sent to one of our queries. Replies travel on the
/// same byte stream as the keys, so the input decoder recognises them and
/// keeps them apart: a reply is never read as a key press.
public enum TerminalReply: Hashable, Sendable {
  /// DA1, `CSI ? Ps ; … c`: the device attributes (4 means sixel).
  case primaryAttributes([Int])
  /// DA2 or any other `CSI > … c`; carried so it is not read as keys.
  case secondaryAttributes([Int])
  /// `APC G … ; message ST`: the kitty graphics protocol's answer.
  case kittyGraphics(id: Int?, message: String)
  /// XTVERSION, `DCS > | text ST`: the terminal's name and version.
  case version(String)
  /// XTSMGRAPHICS, `CSI ? item ; status ; values S`.
  case graphicsAttribute(item: Int, status: Int, values: [Int])
  /// XTWINOPS reports `CSI kind ; a ; b t`: 4 = text area in pixels (height,
  /// width), 6 = cell in pixels (height, width), 8 = text area in cells.
  case windowReport(kind: Int, first: Int, second: Int)
  /// Any other control string (OSC, DCS, APC, PM, SOS) we do not use.
  case otherString
}

/// What the terminal's input stream carries: keys, mouse reports, replies.
public enum TerminalInputEvent: Hashable, Sendable {
  case key(Key)
  case mouse(MouseReport)
  case reply(TerminalReply)
}

/// A raw mouse report (SGR 1006 or the classic X10 encoding), before
/// clicks and double clicks are told apart.
public struct MouseReport: Hashable, Sendable {
  public enum Button: Hashable, Sendable { case left, middle, right, wheelUp, wheelDown, other }
  public var button: Button
  /// False for a release (SGR `m`, or X10 button 3).
  public var isPress: Bool
  /// Motion with a button held (drag).
  public var isMotion: Bool
  /// Zero-based cell coordinates.
  public var x: Int
  public var y: Int

  public init(button: Button, isPress: Bool, isMotion: Bool = false, x: Int, y: Int) {
    self.button = button
    self.isPress = isPress
    self.isMotion = isMotion
    self.x = x
    self.y = y
  }
}

/// Turns mouse reports into the clicks the UI knows: a left press is a
/// click, a second one on the same cell within `interval` a double click.
public struct ClickTracker: Sendable {
  public var interval: Double
  private var lastPress: (x: Int, y: Int, time: Double)?

  public init(interval: Double = 0.3) { self.interval = interval }

  /// `now` in seconds on any monotonic clock.
  public mutating func event(for report: MouseReport, at now: Double) -> MouseEvent? {
    guard report.isPress else { return nil }
    if report.isMotion {
      return report.button == .left ? MouseEvent(kind: .drag, x: report.x, y: report.y) : nil
    }
    switch report.button {
    case .wheelUp: return MouseEvent(kind: .wheelUp, x: report.x, y: report.y)
    case .wheelDown: return MouseEvent(kind: .wheelDown, x: report.x, y: report.y)
    case .left:
      if let last = lastPress, last.x == report.x, last.y == report.y, now - last.time <= interval {
        lastPress = nil
        return MouseEvent(kind: .doubleClick, x: report.x, y: report.y)
      }
      lastPress = (report.x, report.y, now)
      return MouseEvent(kind: .click, x: report.x, y: report.y)
    default: return nil
    }
  }
}
