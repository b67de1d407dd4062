import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// CommandSource with examples/folder_source.py serving a temporary folder,
/// and with small misbehaving programs for the faults.
@Suite(.timeLimit(.minutes(1))) struct CommandSourceTests {
  struct Setup {
    let scratch = ScratchFolder()
    let root: URL
    let photos: URL
    let store: CredentialStore
    let log: LogFile
    let beach = TestImages.jpeg(TestImages.quadrants(32, 24))
    let forest = ImageEncoder.encode(TestImages.solid(8, 8, TestImages.green), as: .png)!
    let cove = ImageEncoder.encode(TestImages.solid(4, 4, TestImages.blue), as: .png)!

    init(environment: [String: String] = [:]) {
      _ = ignoreBrokenPipes
      root = scratch.url
      photos = root.appendingPathComponent("photos")
      try! FileManager.default.createDirectory(
        at: photos.appendingPathComponent("trips"), withIntermediateDirectories: true)
      TestImages.write(beach, to: photos.appendingPathComponent("beach.jpg"))
      TestImages.write(forest, to: photos.appendingPathComponent("forest.png"))
      TestImages.write(cove, to: photos.appendingPathComponent("trips/beach-cove.png"))
      TestImages.write(Array("not a photo".utf8), to: photos.appendingPathComponent("notes.txt"))
      store = CredentialStore(folder: root.path + "/state/credentials", environment: environment)
      log = LogFile(path: root.path + "/state/picker-tui.log")!
    }

    /// folder_source.py, signed in with `token` when one is given.
    func folderSource(token: String? = "secret") -> CommandSource {
      var command = [Python.executable, "-B", projectRoot + "/examples/folder_source.py", photos.path]
      if let token { command += ["--token", token] }
      // 30 s: the tests share two threads with hundreds of others; only
      // the tests of timeouts want a short one.
      return CommandSource(title: "Folder", command: command, timeout: 30, credentials: store, log: log)
    }

    /// A small program of the test's own: `mode` says how it misbehaves,
    /// `file` is a marker or a pid file.
    func tinySource(_ mode: String, file: String = "", timeout: Double = 30) -> CommandSource {
      let script = root.appendingPathComponent("tiny_source.py")
      if !FileManager.default.fileExists(atPath: script.path) {
        TestImages.write(Array(CommandSourceTests.tinySource.utf8), to: script)
      }
      return CommandSource(
        title: "Tiny", command: [Python.executable, "-B", script.path, mode, file], timeout: timeout,
        credentials: store, log: log)
    }

    var logText: String {
      String(decoding: FileManager.default.contents(atPath: log.path) ?? Data(), as: UTF8.self)
    }
  }

  static let tinySource = """
    import json, os, signal, sys, time

    mode, file = sys.argv[1], sys.argv[2]
    if mode in ("stubborn", "normal", "silent") and file:
        with open(file, "w") as out:
            out.write(str(os.getpid()))
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def answer(request, result):
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        request = json.loads(line)
        if "id" not in request:
            continue  # shutdown: a stubborn program ignores it
        if mode == "exit":
            sys.exit(3)
        if mode == "silent":
            time.sleep(60)
        if mode == "garbage":
            print("hello, this is not JSON", flush=True)
            continue
        if mode == "unreadable-once" and request["method"] == "list" and not os.path.exists(file):
            open(file, "w").close()
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": None,
                                         "error": {"code": -32700, "message": "Parse error"}}) + "\\n")
            sys.stdout.flush()
            continue
        if request["method"] == "initialize":
            answer(request, {"search": False, "auth": False})
        elif request["method"] == "list":
            if mode == "crash-once" and not os.path.exists(file):
                open(file, "w").close()
                os._exit(1)
            if mode == "filtered" and request["params"]["offset"] < 20:
                answer(request, {"items": [], "has_more": True})  # a stretch filtered out
                continue
            answer(request, {"items": [{"id": "one", "url": "tiny://one"}], "has_more": False})
    if mode == "stubborn":
        time.sleep(60)
    """

  static let first = PageRequest(offset: 0, limit: 10)

  func ids(_ page: Page) -> [String] { page.items.map(\.id) }

  /// Whether a process with this id still exists (a zombie counts).
  func exists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

  func readPID(_ file: String) -> pid_t? {
    (FileManager.default.contents(atPath: file)).flatMap { pid_t(String(decoding: $0, as: UTF8.self)) }
  }

  @Test func initializeTellsWhatTheSourceCan() async throws {
    let setup = Setup()
    let source = setup.folderSource()
    defer { source.stop() }
    #expect(await source.authStatus() == .signedOut)
    #expect(source.capabilities.contains(.search))
    #expect(source.capabilities.contains(.auth))
    #expect(source.icon == "▤")
    let prompt = try #require(source.authPrompt)
    #expect(prompt.fields == [AuthField(name: "token", label: "Token", isSecret: true)])

    let open = setup.folderSource(token: nil)
    defer { open.stop() }
    #expect(await open.authStatus() == .signedIn)
    #expect(!open.capabilities.contains(.auth))
  }

  @Test func listingNeedsASignIn() async throws {
    let setup = Setup()
    let source = setup.folderSource()
    defer { source.stop() }
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.signIn?.fields.map(\.name) == ["token"])

    let wrong = try #require(await sourceError { try await source.authenticate(["token": "nope"]) })
    #expect(wrong.message.contains("wrong token"))
    #expect(setup.store.answers(for: "Folder") == nil)

    try await source.authenticate(["token": "secret"])
    #expect(await source.authStatus() == .signedIn)
    #expect(ids(try await source.items(in: nil, page: Self.first)) == ["trips", "beach.jpg", "forest.png"])
    #expect(setup.store.answers(for: "Folder") == ["token": "secret"])
    #expect(permissions(setup.store.path(for: "Folder")) == 0o600)
    #expect(!setup.logText.contains("secret"), "credentials never reach the log")
  }

  @Test func listsFoldersAndSearches() async throws {
    let setup = Setup()
    let source = setup.folderSource(token: nil)
    defer { source.stop() }
    let root = try await source.items(in: nil, page: Self.first)
    #expect(ids(root) == ["trips", "beach.jpg", "forest.png"])
    #expect(root.items[0].isFolder)
    #expect(root.total == 3)
    #expect(root.items[1].thumbnail == .remote(source: "command:Folder", url: "folder-source://thumb/beach.jpg"))
    #expect(root.items[1].pickedOutput == .remote(source: "command:Folder", url: "folder-source://file/beach.jpg"))

    let paged = try await source.items(in: nil, page: PageRequest(offset: 1, limit: 1))
    #expect(ids(paged) == ["beach.jpg"])
    #expect(paged.hasMore)

    #expect(ids(try await source.items(in: "trips", page: Self.first)) == ["trips/beach-cove.png"])
    #expect(ids(try await source.search("beach", in: nil, page: Self.first)) == ["beach.jpg", "trips/beach-cove.png"])
    let bad = try #require(await sourceError { _ = try await source.items(in: "../..", page: Self.first) })
    #expect(bad.message.contains("leaves the folder"))
  }

  @Test func thumbnailsAndDownloadsAreTheFilesBytes() async throws {
    let setup = Setup()
    let source = setup.folderSource(token: nil)
    defer { source.stop() }
    guard
      case .bytes(let thumbnail) = try source.fetchThumbnail("folder-source://thumb/beach.jpg", isCancelled: { false })
    else {
      Issue.record("the example answers thumbnails with data")
      return
    }
    #expect(thumbnail == setup.beach)

    let file = DownloadFile(in: setup.root)
    let progress = ProgressLog()
    try source.download(
      "folder-source://file/trips/beach-cove.png", into: file.descriptor, progress: progress.record,
      isCancelled: { false })
    #expect(file.contents() == setup.cove)
    #expect(progress.last?.received == Int64(setup.cove.count))

    let missing = try #require(
      await sourceError { _ = try source.fetchThumbnail("folder-source://thumb/gone.png", isCancelled: { false }) })
    #expect(missing.message.contains("no such file"))
  }

  @Test func savedCredentialsAreReplayedByTheNextInstance() async throws {
    let setup = Setup()
    let first = setup.folderSource()
    try await first.authenticate(["token": "secret"])
    first.stop()

    let next = setup.folderSource()
    defer { next.stop() }
    #expect(ids(try await next.items(in: nil, page: Self.first)).count == 3)
    #expect(await next.authStatus() == .signedIn)

    await next.signOut()
    #expect(setup.store.answers(for: "Folder") == nil)
    #expect(await sourceError { _ = try await next.items(in: nil, page: Self.first) }?.signIn != nil)
  }

  @Test func theEnvironmentTokenSignsInAndIsNotSaved() async throws {
    let setup = Setup(environment: ["PICKER_TUI_FOLDER_TOKEN": "secret"])
    let source = setup.folderSource()
    defer { source.stop() }
    #expect(ids(try await source.items(in: nil, page: Self.first)).count == 3)
    #expect(!FileManager.default.fileExists(atPath: setup.store.path(for: "Folder")))
  }

  @Test func stderrGoesToTheLog() async throws {
    let setup = Setup()
    let source = setup.folderSource(token: nil)
    _ = try await source.items(in: nil, page: Self.first)
    source.stop()
    #expect(setup.logText.contains("folder_source: serving \(setup.photos.path)"))
    #expect(permissions(setup.log.path) == 0o600)
  }

  @Test func aProgramThatExits() async throws {
    let setup = Setup()
    let source = setup.tinySource("exit")
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("exited"))
    #expect(error.message.contains("3"))
  }

  @Test func aProgramThatNeverAnswers() async throws {
    let setup = Setup()
    let pidFile = setup.root.appendingPathComponent("silent.pid").path
    let source = setup.tinySource("silent", file: pidFile, timeout: 1)
    let started = Date()
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("did not answer within 1 s"))
    #expect(setup.logText.contains("did not answer"))
    // The program was ended, not left sleeping.
    let pid = try #require(readPID(pidFile))
    #expect(eventually { !exists(pid) })
    // The program sleeps 60 s: well under that means the timeout answered,
    // not the program. Loose, since the tests share two cores with hundreds
    // of others and a loaded machine took 6.6 s for this 1 s timeout.
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test func aProgramThatWritesGarbage() async throws {
    let setup = Setup()
    let source = setup.tinySource("garbage")
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("not JSON"))
    #expect(setup.logText.contains("not JSON"))
  }

  @Test func anAnswerWithANullIDFailsTheCallAndKeepsTheProgram() async throws {
    let setup = Setup()
    let marker = setup.root.appendingPathComponent("unreadable-once").path
    let source = setup.tinySource("unreadable-once", file: marker)
    defer { source.stop() }
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("could not read a request: Parse error"))
    #expect(try await ids(source.items(in: nil, page: Self.first)) == ["one"])
    #expect(!setup.logText.contains("exited"), "the program was not ended and started again")
  }

  @Test func emptyPagesSayingMoreFollowAreAskedPast() async throws {
    let setup = Setup()
    let source = setup.tinySource("filtered")
    defer { source.stop() }
    let page = try await source.items(in: nil, page: Self.first)
    #expect(ids(page) == ["one"] && !page.hasMore)
  }

  @Test func aCrashedProgramIsStartedAgain() async throws {
    let setup = Setup()
    let marker = setup.root.appendingPathComponent("crashed-once").path
    let source = setup.tinySource("crash-once", file: marker)
    defer { source.stop() }
    let error = try #require(await sourceError { _ = try await source.items(in: nil, page: Self.first) })
    #expect(error.message.contains("exited"))
    #expect(FileManager.default.fileExists(atPath: marker))
    let page = try await source.items(in: nil, page: Self.first)
    #expect(ids(page) == ["one"])
    #expect(page.items[0].original == .remote(source: "command:Tiny", url: "tiny://one"))
  }

  @Test func stopEndsTheProgram() async throws {
    let setup = Setup()
    let pidFile = setup.root.appendingPathComponent("normal.pid").path
    let source = setup.tinySource("normal", file: pidFile)
    _ = try await source.items(in: nil, page: Self.first)
    let pid = try #require(readPID(pidFile))
    #expect(exists(pid))
    source.stop()
    #expect(!exists(pid))
  }

  @Test func stopEndsAProgramThatIgnoresShutdownAndSIGTERM() async throws {
    let setup = Setup()
    let pidFile = setup.root.appendingPathComponent("stubborn.pid").path
    let source = setup.tinySource("stubborn", file: pidFile)
    _ = try await source.items(in: nil, page: Self.first)
    let pid = try #require(readPID(pidFile))
    source.stop()
    #expect(!exists(pid))
  }
}
