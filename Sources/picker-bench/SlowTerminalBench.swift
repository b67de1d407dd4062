import ArgumentParser
import Foundation
import PickerTUI

/// `picker-bench slow-terminal DIR`: key → frame while pages of pictures
/// drain into a terminal that reads slowly (a remote link, a slow
/// emulator). The real binary runs on a pseudo-terminal whose reader takes
/// `--rate` bytes a second and answers the queries a terminal answers; keys
/// (PgDn to a page of new pictures, then Space on and off) are typed while
/// the pictures drain, and each is timed from when it was typed to when the
/// reader reads the first text of its frame.
struct SlowTerminalBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "slow-terminal", abstract: "Key to frame latency while pictures drain into a slow terminal.")

  @Argument(help: "A folder of photos (several pages of them: each page brings new pictures).")
  var folder: String

  @Option(help: "Bytes a second the terminal reads.")
  var rate = 1_000_000

  @Option(name: .customLong("protocol"), help: "kitty or sixel.")
  var graphics: GraphicsProtocol = .kitty

  @Option(help: "Keys to time in each run.")
  var keys = 60

  @Option(help: "Milliseconds between two keys.")
  var interval = 60

  @Option(help: "Runs of each binary, in turn.")
  var runs = 3

  @Option(help: "Terminal size in cells, as WxH.")
  var size = "120x40"

  @Option(help: "Another picker-tui binary (an older build) timed in turn with this one.")
  var against: String?

  @Flag(help: "Print one JSON object per binary.")
  var json = false

  func run() throws {
    let cells = try PixelsBench.size(size, "--size")
    var binaries = [("this build", PickerBinary.path)]
    if let against { binaries.append(("against", against)) }
    var latencies = Array(repeating: [Double](), count: binaries.count)
    var speeds = Array(repeating: [Double](), count: binaries.count)
    for _ in 0..<max(1, runs) {
      for (index, binary) in binaries.enumerated() {
        let result = try SlowTerminalRun(
          binary: binary.1, folder: folder, cells: cells, graphics: graphics, rate: rate, keys: keys,
          interval: Double(interval) / 1000
        ).run()
        latencies[index] += result.latencies
        speeds[index].append(result.bytesPerSecond)
      }
    }
    for (index, binary) in binaries.enumerated() {
      let sorted = latencies[index].sorted()
      func percentile(_ p: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
      }
      let read = (median(speeds[index]) ?? 0) / 1e6
      if json {
        print(
          String(
            format:
              "{\"name\":\"%@\",\"keys\":%d,\"p50_ms\":%.2f,\"p90_ms\":%.2f,\"p99_ms\":%.2f,\"max_ms\":%.2f,\"read_mb_s\":%.3f}",
            binary.0, sorted.count, percentile(0.5), percentile(0.9), percentile(0.99), sorted.last ?? .nan, read))
      } else {
        print(
          String(
            format:
              "%@: key → frame over %d keys, %@ at %.1f MB/s: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms; the terminal read %.2f MB/s",
            binary.0, sorted.count, graphics.rawValue, Double(rate) / 1e6, percentile(0.5), percentile(0.9),
            percentile(0.99), sorted.last ?? .nan, read))
      }
    }
  }
}

/// One run of the picker on a pseudo-terminal read at a set rate.
struct SlowTerminalRun {
  var binary: String
  var folder: String
  var cells: TerminalSize
  var graphics: GraphicsProtocol
  var rate: Int
  var keys: Int
  var interval: Double

  struct Result {
    var latencies: [Double]
    var bytesPerSecond: Double
  }

  private static let pageDown = "\u{1B}[6~"
  /// After a page: time for its thumbnails to decode, so the frames timed
  /// are the keys' own.
  private static let settle = 0.8
  private static let spacesPerPage = 8

  func run() throws -> Result {
    let terminal = try PseudoTerminalRun(cells: cells, cellPixels: PixelSize(width: 8, height: 17))
    // A slow terminal is one across a link: it cannot read our files.
    terminal.readsFiles = false
    let scratch = BenchCache.makeRoot()
    defer { BenchCache.remove(scratch) }
    let home = (scratch as NSString).deletingLastPathComponent
    let environment = PseudoTerminalRun.pickerEnvironment(
      term: graphics == .kitty ? "xterm-kitty" : "xterm-256color", home: home)
    let pid = try terminal.spawn(
      [binary, "--thumbnails", graphics.rawValue, folder], environment: environment)
    defer {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    let master = terminal.master
    var buffer = [UInt8](repeating: 0, count: 65536)
    let started = MonotonicClock.now
    // Up to the first frame the terminal reads at full speed.
    let hints = OutputSearch(Array("? help".utf8))
    var shown = false
    while !shown {
      guard MonotonicClock.now - started < 20 else {
        throw BenchExit(code: 2, message: "no first frame from \(binary)")
      }
      var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 5) > 0 else { continue }
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { continue }
      terminal.answerQueries(in: Data(buffer[0..<count]))
      shown = hints.found(in: buffer[0..<count])
    }
    // From here on it reads `rate` bytes a second, answering as it reads.
    var watcher = FrameTextWatcher()
    var tokens = 0.0
    var last = MonotonicClock.now
    var bytesRead = 0
    let throttledFrom = last
    var latencies: [Double] = []
    var typedAt: Double?
    var nextKeyAt = last
    var sent = 0
    while latencies.count < keys {
      let now = MonotonicClock.now
      tokens = min(tokens + Double(rate) * (now - last), Double(rate) * 0.004)
      last = now
      if typedAt == nil && now >= nextKeyAt {
        let onPage = sent % (Self.spacesPerPage + 1)
        let key = onPage == 0 ? Self.pageDown : " "
        _ = key.withCString { write(master, $0, strlen($0)) }
        typedAt = now
        watcher.sawText = false
        sent += 1
        nextKeyAt = now + (onPage == 0 ? Self.settle : interval)
      }
      var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard tokens >= 1, poll(&ready, 1, 1) > 0 else {
        if tokens < 1 { usleep(500) }
        continue
      }
      let count = read(master, &buffer, min(buffer.count, Int(tokens)))
      guard count > 0 else { continue }
      tokens -= Double(count)
      bytesRead += count
      let questions = watcher.feed(buffer[0..<count])
      for _ in 0..<questions { _ = "\u{1B}[?62;4;22c".withCString { write(master, $0, strlen($0)) } }
      if let typed = typedAt, watcher.sawText {
        // The PgDn that starts a page is typed but not timed: its frame
        // comes with the page's thumbnails still decoding.
        if (sent - 1) % (Self.spacesPerPage + 1) != 0 { latencies.append((MonotonicClock.now - typed) * 1000) }
        typedAt = nil
      } else if let typed = typedAt, MonotonicClock.now - typed > 3 {
        latencies.append(3000)
        typedAt = nil
      }
    }
    let seconds = MonotonicClock.now - throttledFrom
    _ = "q".withCString { write(master, $0, strlen($0)) }
    return Result(latencies: latencies, bytesPerSecond: Double(bytesRead) / seconds)
  }

}

/// Tells a frame's text (ncurses' output) from picture bytes in a terminal
/// stream: pictures are control strings (APC, DCS) or sit between `ESC 7`
/// and `ESC 8`; the DA1 questions after a batch of pictures are counted, as
/// a terminal answers them.
struct FrameTextWatcher {
  private enum State { case ground, escape, sequence, string, stringEscape }
  private var state = State.ground
  private var bracketed = false
  private var sequence: [UInt8] = []
  /// Text was read since this was last set to false.
  var sawText = false

  /// Returns the DA1 questions in these bytes.
  mutating func feed(_ bytes: ArraySlice<UInt8>) -> Int {
    var questions = 0
    for byte in bytes {
      switch state {
      case .ground:
        if byte == 0x1B { state = .escape } else if !bracketed { sawText = true }
      case .escape:
        switch byte {
        case UInt8(ascii: "["):
          state = .sequence
          sequence = []
        case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "X"):
          state = .string
        case UInt8(ascii: "7"):
          bracketed = true
          state = .ground
        case UInt8(ascii: "8"):
          bracketed = false
          state = .ground
        default:
          if !bracketed && byte != UInt8(ascii: "\\") { sawText = true }
          state = .ground
        }
      case .sequence:
        guard (0x40...0x7E).contains(byte) else {
          sequence.append(byte)
          continue
        }
        if byte == UInt8(ascii: "c") && sequence.isEmpty {
          questions += 1
        } else if !bracketed {
          sawText = true
        }
        state = .ground
      case .string:
        if byte == 0x1B { state = .stringEscape } else if byte == 0x07 { state = .ground }
      case .stringEscape:
        state = byte == UInt8(ascii: "\\") ? .ground : .string
      }
    }
    return questions
  }
}
