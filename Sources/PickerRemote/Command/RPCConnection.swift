import Foundation

/// One running command source and the requests waiting for its answers.
///
/// Calls block their thread (page loads run on threads of their own, image
/// fetches on network workers) until the answer, the process's end, or the
/// timeout. A process that hangs or writes garbage is ended: its waiting
/// calls fail, and the next `start` runs a fresh one.
final class RPCConnection: @unchecked Sendable {
  let name: String
  let command: [String]
  let timeout: Double
  private let log: LogFile?
  private let lock = NSLock()
  private var process: ChildProcess?
  /// Counts processes started, so a stale reader cannot touch a new one.
  private(set) var generation = 0
  private var nextID = 1
  private var waiting: [Int: Waiter] = [:]
  /// The process `stop` ended on purpose: its end is not news for the log.
  private var stoppedGeneration = 0

  private final class Waiter: @unchecked Sendable {
    let generation: Int
    let done = DispatchSemaphore(value: 0)
    var result: Result<JSONValue, SourceError>?
    init(generation: Int) { self.generation = generation }
  }

  init(name: String, command: [String], timeout: Double, log: LogFile?) {
    self.name = name
    self.command = command
    self.timeout = timeout
    self.log = log
  }

  var isRunning: Bool { lock.withLock { process != nil } }

  /// The generation of the process running now, nil when none runs.
  var runningGeneration: Int? { lock.withLock { process == nil ? nil : generation } }

  /// Starts the program unless it runs; returns its generation.
  @discardableResult
  func start() throws(SourceError) -> Int {
    lock.lock()
    defer { lock.unlock() }
    if process != nil { return generation }
    let child = try ChildProcess(command: command, stderr: try stderrDescriptor)
    generation += 1
    process = child
    let generation = generation
    log?.write("source \(name): started \(command.first ?? "") (pid \(child.pid))")
    let thread = Thread { [weak self] in self?.readAnswers(from: child, generation: generation) }
    thread.name = "source-\(name)"
    thread.start()
    return generation
  }

  /// Sends a request and waits for its answer.
  func call(_ method: String, _ params: JSONValue, timeout: Double? = nil) throws(SourceError) -> JSONValue {
    lock.lock()
    guard let child = process else {
      lock.unlock()
      throw SourceError("\(name) is not running")
    }
    let id = nextID
    nextID += 1
    let waiter = Waiter(generation: generation)
    waiting[id] = waiter
    lock.unlock()
    if !child.write(JSONRPC.request(id: id, method: method, params: params)) {
      // The reader sees the end of the process and fails the waiters.
      log?.write("source \(name): cannot write to it")
    }
    let limit = timeout ?? self.timeout
    if waiter.done.wait(timeout: .now() + limit) == .timedOut {
      let stillWaiting = lock.withLock { waiting.removeValue(forKey: id) != nil }
      if stillWaiting {
        fail(generation: waiter.generation, reason: "did not answer \(method) within \(Self.seconds(limit))")
        throw SourceError("\(name) did not answer within \(Self.seconds(limit))")
      }
      waiter.done.wait()
    }
    return try waiter.result!.get()
  }

  /// Tells the program to leave and makes sure it does.
  func stop(grace: Double = 0.5) {
    let child: ChildProcess? = lock.withLock {
      defer { process = nil }
      stoppedGeneration = generation
      return process
    }
    guard let child else { return }
    _ = child.write(JSONRPC.notification(method: "shutdown"))
    child.closeInput()
    let status = child.end(grace: grace)
    log?.write("source \(name): \(ChildProcess.describe(status)) at shutdown")
  }

  private func readAnswers(from child: ChildProcess, generation: Int) {
    var splitter = LineSplitter()
    while true {
      let bytes = child.read()
      if bytes.isEmpty { break }
      let lines: [[UInt8]]
      do {
        lines = try splitter.append(bytes)
      } catch {
        fail(generation: generation, reason: "wrote a line longer than \(splitter.maxLineBytes >> 20) MB")
        return
      }
      for line in lines where !line.allSatisfy({ $0 == 32 || $0 == 9 }) {
        switch JSONRPC.parse(line) {
        case .failure(let error):
          fail(generation: generation, reason: error.message)
          return
        case .success(.notification): continue
        case .success(.unattributedError(let error)):
          // The program is fine, it could not read one request: the calls
          // waiting fail with its words, and it keeps running.
          failWaiting(generation: generation, reason: "could not read a request: \(error.message)")
        case .success(.response(let id, let result)):
          let waiter = lock.withLock { waiting.removeValue(forKey: id) }
          guard let waiter else { continue }  // answered after its timeout
          waiter.result = result.mapError { error in
            SourceError(
              error.message, signIn: error.code == JSONRPC.signInRequired ? AuthPrompt(title: name, fields: []) : nil)
          }
          waiter.done.signal()
        }
      }
    }
    let status = child.end(grace: 0.2)
    fail(generation: generation, reason: ChildProcess.describe(status))
  }

  /// Fails the calls waiting on the process of `generation`, leaving it
  /// running.
  private func failWaiting(generation: Int, reason: String) {
    let waiters = lock.withLock { takeWaiters(of: generation) }
    log?.write("source \(name): \(reason)")
    resolve(waiters, failingWith: reason)
  }

  /// Ends the process of `generation` (if it still is the current one) and
  /// fails every call waiting on it with `reason`.
  private func fail(generation: Int, reason: String) {
    let (child, waiters, stopped): (ChildProcess?, [Waiter], Bool) = lock.withLock {
      let child = self.generation == generation ? process : nil
      if child != nil { process = nil }
      return (child, takeWaiters(of: generation), stoppedGeneration == generation)
    }
    if !stopped || !waiters.isEmpty { log?.write("source \(name): \(reason)") }
    resolve(waiters, failingWith: reason)
    if let child {
      // Off this thread: ending it may wait for the process.
      Thread.detachNewThread { child.end(grace: 0) }
    }
  }

  /// The calls waiting on `generation`, taken out of `waiting` (under the lock).
  private func takeWaiters(of generation: Int) -> [Waiter] {
    let failed = waiting.filter { $0.value.generation == generation }
    for id in failed.keys { waiting[id] = nil }
    return Array(failed.values)
  }

  private func resolve(_ waiters: [Waiter], failingWith reason: String) {
    for waiter in waiters {
      waiter.result = .failure(SourceError("\(name) \(reason)"))
      waiter.done.signal()
    }
  }

  private static let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)

  /// Where the child's stderr goes: the log, else /dev/null, never the
  /// terminal the picker draws on.
  private var stderrDescriptor: Int32 {
    get throws(SourceError) {
      let fd = log?.descriptor ?? Self.devNull
      guard fd >= 0 else { throw SourceError("cannot open /dev/null for \(name)'s stderr") }
      return fd
    }
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }
}
