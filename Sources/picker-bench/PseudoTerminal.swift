import Foundation
import PickerTUI

/// A program started the way a shell starts it, on a terminal of its own
/// (a pseudo-terminal: its controlling tty, its stdin, stdout and stderr),
/// whose output the bench reads as it comes, answering the queries a real
/// terminal answers. For timing whole processes from exec.
final class PseudoTerminalRun {
  /// When each thing was first seen, in ms from exec.
  struct Timings {
    var firstFrame: Double?
    var thumbnails: Double?
    var exit: Double?
  }

  let master: Int32
  private let slavePath: String

  /// `cells` and `cellPixels`: the window the program sees (TIOCGWINSZ).
  init(cells: TerminalSize, cellPixels: PixelSize) throws {
    // posix_openpt and friends are not in Swift's Glibc module: the Linux
    // ioctls they wrap (unlock, then ask the number) do the same.
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, Self.setLock, &unlock) == 0, ioctl(master, Self.getNumber, &number) == 0 else {
      throw BenchExit(code: 2, message: "cannot open a pseudo-terminal")
    }
    slavePath = "/dev/pts/\(number)"
    var size = winsize(
      ws_row: UInt16(cells.height), ws_col: UInt16(cells.width),
      ws_xpixel: UInt16(cells.width * cellPixels.width), ws_ypixel: UInt16(cells.height * cellPixels.height))
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  deinit { close(master) }

  /// The environment a measured picker runs in: this terminal type, its
  /// cache, state and config under `home` (nothing of the user's), and no
  /// tmux around it.
  static func pickerEnvironment(term: String, home: String) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = term
    environment["XDG_CACHE_HOME"] = home
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["XDG_CONFIG_HOME"] = home + "/config"
    environment.removeValue(forKey: "TMUX")
    return environment
  }

  /// TIOCSPTLCK and TIOCGPTN (asm-generic ioctls, as on x86_64 and arm64).
  private static let setLock = UInt(0x4004_5431)
  private static let getNumber = UInt(0x8004_5430)
  /// glibc's POSIX_SPAWN_SETSID, which the Glibc module leaves out.
  private static let spawnNewSession: Int16 = 0x80

  /// Looks at the output as it comes, chunk by chunk (never all of it again:
  /// 40 pixel thumbnails are megabytes, and a slow reader would hold the
  /// program up); true once it has seen what it waits for.
  typealias Watcher = (ArraySlice<UInt8>) -> Bool

  /// Starts `arguments` (an absolute path first) and reads until `done`
  /// says so, the program exits, or `limit` seconds pass. Then, not
  /// counted, it runs on for `settle` seconds (the picker writes its
  /// thumbnail cache after drawing: quit at once, a warm run would find
  /// half of it), `quit` is typed, and it has a few seconds to exit before
  /// it is ended.
  func run(
    _ arguments: [String], environment: [String: String], limit: Double = 20, settle: Double = 0,
    quit: String? = nil,
    firstFrame: Watcher, thumbnails: Watcher, done: (Timings) -> Bool
  ) throws -> Timings {
    var timings = Timings()
    let started = DispatchTime.now().uptimeNanoseconds
    let pid = try spawn(arguments, environment: environment)
    func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6 }
    var buffer = [UInt8](repeating: 0, count: 65536)
    var status: Int32 = 0
    while elapsed() < limit * 1000 {
      var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, 5) > 0 {
        let count = read(master, &buffer, buffer.count)
        if count > 0 {
          let chunk = buffer[0..<count]
          answerQueries(in: Data(chunk))
          readFiles(in: chunk)
          if timings.firstFrame == nil, firstFrame(chunk) { timings.firstFrame = elapsed() }
          if timings.thumbnails == nil, thumbnails(chunk) { timings.thumbnails = elapsed() }
        }
      }
      if timings.exit == nil, waitpid(pid, &status, WNOHANG) == pid { timings.exit = elapsed() }
      if done(timings) { break }
    }
    if timings.exit == nil, let quit {
      let settled = elapsed() + settle * 1000
      while elapsed() < settled {
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, 5) > 0 { _ = read(master, &buffer, buffer.count) }
      }
      _ = quit.withCString { write(master, $0, strlen($0)) }
      let deadline = elapsed() + 5000
      while elapsed() < deadline, waitpid(pid, &status, WNOHANG) != pid {
        // Keep reading, so a program writing its last frame is not stuck.
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, 5) > 0 { _ = read(master, &buffer, buffer.count) }
      }
      if waitpid(pid, &status, WNOHANG) == 0 { kill(pid, SIGKILL) }
      waitpid(pid, &status, 0)
    } else if timings.exit == nil {
      kill(pid, SIGKILL)
      waitpid(pid, &status, 0)
    }
    return timings
  }

  /// A new session whose controlling terminal is the pseudo-terminal: the
  /// first tty a session leader opens becomes its own.
  func spawn(_ arguments: [String], environment: [String: String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Self.spawnNewSession)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard result == 0 else {
      throw BenchExit(code: 2, message: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
    }
    return pid
  }

  /// Whether it reads pictures from files, as kitty on the same machine
  /// does (then it answers the file query OK, and reads and deletes each
  /// file as kitty would); false is a terminal across a link.
  var readsFiles = true
  private var fileCommands = KittyFileCommands()

  /// A terminal answers DA1 at once and says it draws kitty images: the
  /// programs measured wait for these answers before they draw.
  func answerQueries(in chunk: Data) {
    var answers = ""
    // In the order asked: the kitty queries come before the DA1 sentinel.
    var from = chunk.startIndex
    while let start = chunk[from...].range(of: Data("\u{1B}_Gi=".utf8)),
      let end = chunk[start.upperBound...].range(of: Data("\u{1B}\\".utf8))
    {
      let command = chunk[start.upperBound..<end.lowerBound]
      from = end.upperBound
      guard command.range(of: Data("a=q".utf8)) != nil else { continue }
      let id = String(decoding: command.prefix { (0x30...0x39).contains($0) }, as: UTF8.self)
      if command.range(of: Data("t=t".utf8)) != nil {
        let read = readsFiles && readFile(named: command.split(separator: UInt8(ascii: ";")).last ?? Data())
        answers += "\u{1B}_Gi=\(id);\(read ? "OK" : "EBADF:no such file")\u{1B}\\"
      } else {
        answers += "\u{1B}_Gi=\(id);OK\u{1B}\\"
      }
    }
    if chunk.range(of: Data("\u{1B}[c".utf8)) != nil || chunk.range(of: Data("\u{1B}[0c".utf8)) != nil {
      answers += "\u{1B}[?62;4;22c"
    }
    if !answers.isEmpty { _ = answers.withCString { write(master, $0, strlen($0)) } }
  }

  /// Reads the pictures sent as files in this chunk, and deletes them.
  func readFiles(in chunk: ArraySlice<UInt8>) {
    guard readsFiles else { return }
    for name in fileCommands.names(in: chunk) { _ = readFile(named: Data(name)) }
  }

  private func readFile(named base64: Data) -> Bool {
    guard let decoded = Data(base64Encoded: base64) else { return false }
    let path = String(decoding: decoded, as: UTF8.self)
    guard FileManager.default.contents(atPath: path) != nil else { return false }
    unlink(path)
    return true
  }
}

/// Finds kitty transmissions from files (`a=t,…,t=t;NAME`) in output read
/// chunk by chunk: each file's name (base64), once.
struct KittyFileCommands {
  private static let marker = Array("\u{1B}_Ga=t,".utf8)
  private var tail: [UInt8] = []
  /// Bytes seen before `tail`, and where the last command handled started.
  private var before = 0
  private var handled = -1

  mutating func names(in chunk: ArraySlice<UInt8>) -> [[UInt8]] {
    let window = tail + chunk
    var names: [[UInt8]] = []
    var from = 0
    while let found = OutputSearch.firstIndex(of: Self.marker, in: window, from: from) {
      from = found + Self.marker.count
      guard let end = window[from...].firstIndex(of: 0x1B) else { break }
      guard before + found > handled else { continue }
      let command = window[from..<end]
      guard let semicolon = command.firstIndex(of: UInt8(ascii: ";")),
        command[..<semicolon].split(separator: UInt8(ascii: ",")).contains(where: { $0.elementsEqual("t=t".utf8) })
      else { continue }
      handled = before + found
      names.append(Array(window[(semicolon + 1)..<end]))
    }
    let keep = min(window.count, 512)
    before += window.count - keep
    tail = Array(window.suffix(keep))
    return names
  }
}
