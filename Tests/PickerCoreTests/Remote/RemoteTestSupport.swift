import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The project's root folder (this file is Tests/PickerCoreTests/Remote/…).
let projectRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<4 { url.deleteLastPathComponent() }
  return url.path
}()

/// The Python interpreter itself. `python3` on PATH may be a launcher that
/// runs the interpreter as a child of its own; tests that end a process by
/// its id must start the real one.
enum Python {
  static let executable: String = {
    let output = run(["/usr/bin/env", "python3", "-c", "import sys; print(sys.executable)"])
    let path = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    precondition(!path.isEmpty, "python3 is needed for these tests")
    return path
  }()

  /// Runs Python code (no bytecode files written) and returns its stdout.
  static func output(_ code: String) -> [UInt8] {
    run([executable, "-B", "-c", code])
  }

  private static func run(_ arguments: [String]) -> [UInt8] {
    try! ChildRun.run(arguments).output
  }
}

/// Writing to a source that has just exited must fail with EPIPE instead of
/// ending the test run; the picker ignores SIGPIPE in the same way.
let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Tests/Servers/photo_server.py, run on loopback for one test and ended
/// when the object goes away.
final class PhotoServer: @unchecked Sendable {
  let port: Int
  private let server: ChildRun

  /// `arguments` are photo_server.py options (`--token`, `--photos`, …).
  init(_ arguments: [String] = []) throws {
    _ = ignoreBrokenPipes
    server = try ChildRun(
      [Python.executable, "-B", projectRoot + "/Tests/Servers/photo_server.py", "--port", "0"] + arguments,
      captureOutput: true)
    // The first line is "PORT <n>" once the server listens.
    var text = ""
    while !text.contains("\n"), let output = server.output {
      let data = output.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
    }
    guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
      kill(server.pid, SIGKILL)
      server.wait()
      throw SourceError("photo_server.py did not report its port: \(text)")
    }
    self.port = port
  }

  deinit {
    // SIGKILL: a process started from a test thread inherits that thread's
    // blocked signals, SIGTERM among them.
    kill(server.pid, SIGKILL)
    server.wait()
  }

  /// The API base on 127.0.0.1 (or another name for the same server).
  func url(host: String = "127.0.0.1") -> String { "http://\(host):\(port)/api" }

  /// POST /_control: faults, delays, a new token.
  func control(_ settings: [String: Any]) {
    let body = try! JSONSerialization.data(withJSONObject: settings)
    let (status, answer) = LoopbackHTTP.send("POST", port: port, path: "/_control", body: Array(body))
    #expect(status == 200, "/_control refused \(settings): \(String(decoding: answer, as: UTF8.self))")
  }

  /// GET /_requests: what arrived, oldest first (the control paths are not listed).
  func requests() -> [(path: String, headers: [String: String])] {
    let (_, body) = LoopbackHTTP.send("GET", port: port, path: "/_requests")
    let entries = (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]] ?? []
    return entries.map { entry in
      (entry["path"] as? String ?? "", entry["headers"] as? [String: String] ?? [:])
    }
  }
}

/// A minimal HTTP/1.1 client over a plain socket, independent of the code
/// under test, for talking to the test server's control paths.
enum LoopbackHTTP {
  static func send(_ method: String, port: Int, path: String, body: [UInt8] = []) -> (status: Int, body: [UInt8]) {
    let fd = connectedSocket(port: port)
    guard fd >= 0 else { return (0, []) }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let head =
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    guard FileIO.writeAll(fd, Array(head.utf8) + body) else { return (0, []) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      response += buffer[..<n]
    }
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard let end = (0..<max(response.count - 3, 0)).first(where: { Array(response[$0..<($0 + 4)]) == separator })
    else { return (0, []) }
    let statusLine = String(decoding: response[..<end], as: UTF8.self).split(separator: " ")
    let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
    return (status, Array(response[(end + 4)...]))
  }

  /// A socket connected to 127.0.0.1:`port`, or -1.
  static func connectedSocket(port: Int) -> Int32 {
    #if os(Linux)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return -1 }
    var address = loopback(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if result != 0 {
      close(fd)
      return -1
    }
    return fd
  }

  /// A loopback port nothing listens on (bound once, then released).
  static func unusedPort() -> Int {
    #if os(Linux)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
      }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }
}

/// A fresh folder for one test, removed with its contents when the test ends.
final class ScratchFolder: @unchecked Sendable {
  let url = TestImages.temporaryFolder()
  var path: String { url.path }
  deinit { try? FileManager.default.removeItem(at: url) }
}

/// The error a source call threw, when it was a SourceError.
func sourceError(_ body: () async throws -> Void) async -> SourceError? {
  do {
    try await body()
    return nil
  } catch let error as SourceError {
    return error
  } catch {
    Issue.record("expected a SourceError, got \(error)")
    return nil
  }
}

/// The permission bits of a file or folder, from stat(2).
func permissions(_ path: String) -> mode_t? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return info.st_mode & 0o777
}

/// A file opened for a download, read back after.
struct DownloadFile {
  let path: String
  let descriptor: Int32

  init(in folder: URL) {
    path = folder.appendingPathComponent("download-\(UUID().uuidString)").path
    descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
  }

  func contents() -> [UInt8] {
    close(descriptor)
    return Array(FileManager.default.contents(atPath: path) ?? Data())
  }
}

/// Progress reports a download made, for checking the last one.
final class ProgressLog: @unchecked Sendable {
  private let lock = NSLock()
  private var reports: [(Int64, Int64?)] = []
  func record(_ received: Int64, _ expected: Int64?) { lock.withLock { reports.append((received, expected)) } }
  var last: (received: Int64, expected: Int64?)? { lock.withLock { reports.last } }
}
