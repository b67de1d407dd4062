import ArgumentParser
import Foundation

/// Thumbnails of the same photos by picker-tui and by other tools, side by
/// side: `picker-bench thumbnails` run as a process of its own (cold and
/// warm cache), vipsthumbnail and chafa with the files dealt over `--jobs`
/// processes at once, timg as one process of `--jobs` threads. Runs are
/// interleaved (each run visits every pair, starting one later) so machine
/// noise falls on all alike; every photo is read once first so all find
/// them in the page cache. Medians, with min and max, over `--runs`.
struct ToolsBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tools",
    abstract: "Thumbnails per second of picker-tui next to vipsthumbnail, timg and chafa, on the same photos.")

  @Argument(help: "A folder made by scripts/make-bench-photos.py (its exif/ and plain/ sub-folders).")
  var benchDirectory: String

  @Option(help: "Runs per measurement.")
  var runs = 5

  @Option(help: "Tools to compare with, comma-separated.")
  var tools = "vipsthumbnail,timg,chafa"

  @Option(help: "Sub-folders of the bench folder, comma-separated.")
  var sets = "exif,plain"

  @Option(help: "Processes (threads for timg) per tool; default: the CPUs.")
  var jobs = ProcessInfo.processInfo.activeProcessorCount

  @Flag(help: "Leave picker-tui out.")
  var onlyTools = false

  @Flag(help: "Print one JSON object on stdout (the table goes to stderr).")
  var json = false

  /// picker-tui's figures, as `picker-bench thumbnails --json` prints them.
  static let pickerKeys = ["files", "per_second", "p50_ms", "p95_ms", "first40_ms", "peak_rss_mb"]

  func run() throws {
    guard runs >= 1, jobs >= 1 else { throw BenchExit(code: 2, message: "--runs and --jobs must be at least 1") }
    var folders: [(name: String, folder: String, files: [String])] = []
    for name in sets.split(separator: ",").map(String.init) {
      let folder = URL(fileURLWithPath: benchDirectory).appendingPathComponent(name).path
      let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
        .map { folder + "/" + $0 }
      guard !files.isEmpty else {
        throw BenchExit(code: 2, message: "no photos in \(folder): make them with scripts/make-bench-photos.py")
      }
      folders.append((name, folder, files))
    }
    var present: [String] = []
    var skipped: [String: String] = [:]
    for tool in tools.split(separator: ",").map(String.init) {
      guard ["vipsthumbnail", "timg", "chafa"].contains(tool) else {
        throw BenchExit(code: 2, message: "unknown tool \(tool) (known: vipsthumbnail, timg, chafa)")
      }
      if programOnPath(tool) != nil { present.append(tool) } else { skipped[tool] = "not installed" }
    }
    // Every (folder, what) pair, visited once per run in a rotating order.
    var tasks: [(set: Int, what: String)] = []
    for index in folders.indices {
      if !onlyTools { tasks += [(index, "picker-cold"), (index, "picker-warm")] }
      tasks += present.map { (index, $0) }
    }
    guard !tasks.isEmpty else { throw BenchExit(code: 2, message: "nothing to measure") }
    for set in folders { for file in set.files { _ = FileManager.default.contents(atPath: file) } }
    var samples: [String: [[String: Double]]] = [:]
    let scratch = NSTemporaryDirectory() + "bench-tools-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    for run in 0..<runs {
      let shift = run % tasks.count
      for task in tasks[shift...] + tasks[..<shift] {
        let set = folders[task.set]
        let sample =
          task.what.hasPrefix("picker-")
          ? try Self.runPicker(set.folder, cold: task.what == "picker-cold")
          : try Self.runTool(task.what, files: set.files, jobs: jobs, scratch: scratch)
        samples["\(set.name)/\(task.what)", default: []].append(sample)
        FileHandle.standardError.write(
          Data(
            String(format: "run %d %@/ %@: %.1f files/s\n", run + 1, set.name, task.what, sample["per_second"]!).utf8))
      }
    }
    report(folders.map { ($0.name, $0.files.count) }, present: present, samples: samples, skipped: skipped)
  }

  private func report(
    _ sets: [(name: String, files: Int)], present: [String], samples: [String: [[String: Double]]],
    skipped: [String: String]
  ) {
    func spread(_ values: [Double]) -> [String: Double] {
      let sorted = values.sorted()
      return ["median": sorted[sorted.count / 2], "min": sorted[0], "max": sorted[sorted.count - 1]]
    }
    var lines: [String] = []
    var object: [String: Any] = ["runs": runs, "jobs": jobs, "skipped": skipped]
    for set in sets {
      lines.append("")
      lines.append("\(set.name)/: \(set.files) files; median (min-max) of \(runs) runs, \(jobs) jobs")
      var entry: [String: Any] = ["files": set.files]
      let picker = ["cold", "warm"].compactMap { mode -> (String, [String: Double])? in
        guard let runs = samples["\(set.name)/picker-\(mode)"] else { return nil }
        return (mode, spread(runs.map { $0["per_second"]! }))
      }
      for (mode, rate) in picker {
        let runs = samples["\(set.name)/picker-\(mode)"]!
        let first40 = spread(runs.map { $0["first40_ms"]! })
        lines.append(
          String(
            format: "  picker-tui %@  %7.1f files/s (%.1f-%.1f), first 40 in %.1f ms, peak RSS %.1f MB", mode,
            rate["median"]!, rate["min"]!, rate["max"]!, first40["median"]!,
            spread(runs.map { $0["peak_rss_mb"]! })["median"]!))
        entry["picker_\(mode)"] = ["per_second": rate, "first40_ms": first40]
      }
      for tool in present {
        guard let runs = samples["\(set.name)/\(tool)"] else { continue }
        let rate = spread(runs.map { $0["per_second"]! })
        let ratios = picker.map { String(format: "%@ %.1fx", $0.0, $0.1["median"]! / rate["median"]!) }
        lines.append(
          String(
            format: "  %@ %7.1f files/s (%.1f-%.1f), peak RSS %.1f MB a process; picker-tui: %@",
            tool.padding(toLength: 14, withPad: " ", startingAt: 0),
            rate["median"]!, rate["min"]!, rate["max"]!, spread(runs.map { $0["peak_rss_mb"]! })["median"]!,
            ratios.joined(separator: ", ")))
        entry[tool] = ["per_second": rate]
      }
      object[set.name] = entry
    }
    for (tool, why) in skipped.sorted(by: { $0.key < $1.key }) { lines.append("skipped \(tool): \(why)") }
    let table = lines.joined(separator: "\n") + "\n"
    if json, let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
      FileHandle.standardError.write(Data(table.utf8))
      print(String(decoding: data, as: UTF8.self))
    } else {
      print(table, terminator: "")
    }
  }

  /// `picker-bench thumbnails FOLDER --json`, this executable as a process
  /// of its own: the whole process is timed, as a user would run it.
  static func runPicker(_ folder: String, cold: Bool) throws -> [String: Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["thumbnails", folder, "--json"] + (cold ? ["--cold"] : [])
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { throw BenchExit(code: 1, message: "picker-bench thumbnails \(folder) failed") }
    var figures: [String: Double] = [:]
    for key in pickerKeys {
      guard let value = (object[key] as? NSNumber)?.doubleValue else {
        throw BenchExit(code: 1, message: "picker-bench thumbnails printed no \(key)")
      }
      figures[key] = value
    }
    return figures
  }

  /// One tool over every file: files a second over the wall time from the
  /// first start to the last end, and the largest process's peak RSS.
  static func runTool(_ tool: String, files: [String], jobs: Int, scratch: String) throws -> [String: Double] {
    let dealt = (0..<jobs).map { job in stride(from: job, to: files.count, by: jobs).map { files[$0] } }
      .filter { !$0.isEmpty }
    let commands: [[String]]
    switch tool {
    case "vipsthumbnail": commands = dealt.map { ["vipsthumbnail", "--size", "128", "-o", scratch + "/%s.jpg"] + $0 }
    case "chafa": commands = dealt.map { ["chafa", "--format", "symbols", "--size", "16x8", "--colors", "full"] + $0 }
    default: commands = [["timg", "-g16x8", "-pq", "--threads=\(jobs)"] + files]
    }
    let start = DispatchTime.now().uptimeNanoseconds
    var pids: [pid_t] = []
    for command in commands {
      guard let pid = spawn(command) else { throw BenchExit(code: 1, message: "\(tool) could not be started") }
      pids.append(pid)
    }
    var peak = 0.0
    var failed = false
    for pid in pids {
      var status: Int32 = 0
      var usage = rusage()
      _ = wait4(pid, &status, 0, &usage)
      peak = max(peak, Double(usage.ru_maxrss) / 1024)
      if status != 0 { failed = true }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    for name in (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? [] {
      try? FileManager.default.removeItem(atPath: scratch + "/" + name)
    }
    if failed { throw BenchExit(code: 1, message: "\(tool) failed") }
    return ["per_second": Double(files.count) / seconds, "peak_rss_mb": peak]
  }

  /// Starts `command` (found on PATH) with its standard streams on /dev/null.
  private static func spawn(_ command: [String]) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var arguments = command.map { strdup($0) } + [nil]
    defer { for argument in arguments { free(argument) } }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, command[0], &actions, nil, &arguments, environ)
    return status == 0 ? pid : nil
  }
}
