import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct ConfigFileTests {
  static let path = "/cfg/picker-tui/config.toml"

  /// The error text for `text`, or nil when it parses.
  func error(_ text: String) -> String? {
    do {
      _ = try ConfigFile.parse(text, path: Self.path, home: "/home/ann")
      return nil
    } catch {
      return error.description
    }
  }

  /// Checks that the error starts with "path:line:" and mentions `words`.
  func expectError(
    _ text: String, line: Int, mentions words: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let message = error(text) else {
      Issue.record("parsed without an error", sourceLocation: sourceLocation)
      return
    }
    #expect(message.hasPrefix("\(Self.path):\(line): "), "\(message)", sourceLocation: sourceLocation)
    for word in words {
      #expect(message.contains(word), "\(message) should mention \(word)", sourceLocation: sourceLocation)
    }
  }

  @Test func aFullConfigParsesToItsSources() throws {
    let text = """
      # My sources, in bar order.

      [[sources]]
      kind = "web"   # a photo service
      name = "Stock"
      url = "https://photos.example.com/api"
      auth = "token"
      timeout = 12

      [[sources]]
      kind = 'command'
      name = "Shoebox"
      command = [
        "python3",          # the interpreter
        "/opt/shoebox.py",
        # a comment between elements
        "--fast",
      ]
      timeout = 2.5

      [[sources]]
      kind = "folder"
      name = "Holiday"
      path = "~/Pictures/2024"

      [[sources]]
      kind = "web"
      name = "Open"
      url = "http://127.0.0.1:8765/api"
      """
    let config = try ConfigFile.parse(text, path: Self.path, home: "/home/ann")
    #expect(
      config.sources == [
        .web(name: "Stock", url: "https://photos.example.com/api", auth: .token, timeout: 12),
        .command(name: "Shoebox", command: ["python3", "/opt/shoebox.py", "--fast"], timeout: 2.5),
        .folder(name: "Holiday", path: "/home/ann/Pictures/2024"),
        .web(name: "Open", url: "http://127.0.0.1:8765/api", auth: .none, timeout: 30),
      ])
  }

  @Test func aFileWithWindowsLineEndingsReadsTheSame() throws {
    let text =
      "thumbnails = \"symbols\"\r\n\r\n[[sources]]\r\nkind = \"folder\"\r\nname = \"Holiday\"\r\npath = \"/p\"\r\n"
    let config = try ConfigFile.parse(text, path: Self.path, home: "/home/ann")
    #expect(config.sources == [.folder(name: "Holiday", path: "/p")])
  }

  @Test func defaultsAndTildeAlone() throws {
    let text = """
      [[sources]]
      kind = "command"
      name = "C"
      command = ["src"]
      [[sources]]
      kind = "folder"
      name = "Home"
      path = "~"
      [[sources]]
      kind = "folder"
      name = "Other"
      path = "~bob/x"
      """
    let config = try ConfigFile.parse(text, path: Self.path, home: "/home/ann")
    #expect(config.sources[0] == .command(name: "C", command: ["src"], timeout: 10))
    #expect(config.sources[1] == .folder(name: "Home", path: "/home/ann"))
    // Only "~" and "~/" are the user's home; "~bob" stays as written.
    #expect(config.sources[2] == .folder(name: "Other", path: "~bob/x"))
  }

  @Test func thumbnailsAtTheTopLevel() throws {
    let config = try ConfigFile.parse("thumbnails = \"sixel\"\n", path: Self.path)
    #expect(config.thumbnails == .sixel && config.sources.isEmpty)
    #expect(try ConfigFile.parse("", path: Self.path).thumbnails == nil)
    expectError("\n\nthumbnails = \"pixels\"\n", line: 3, mentions: ["thumbnails", "auto, kitty, sixel"])
    expectError("colour = 1\n", line: 1, mentions: ["unknown key colour", "thumbnails"])
  }

  @Test func anUnknownKeyNamesItsLine() {
    expectError(
      """
      [[sources]]
      kind = "web"
      name = "Stock"
      url = "http://h/api"
      tokn = "x"
      """, line: 5, mentions: ["tokn", "unknown key", "(its keys: kind, name, auth, icon, timeout, url)"])
  }

  @Test func aBadAuthValue() {
    expectError(
      """
      [[sources]]
      kind = "web"
      name = "Stock"
      url = "http://h/api"

      auth = "oauth"
      """, line: 6, mentions: ["auth", "none, token, basic"])
  }

  @Test func aMissingURLNamesTheTable() {
    expectError(
      """
      # first
      [[sources]]
      kind = "web"
      name = "Stock"
      """, line: 2, mentions: ["url"])
  }

  @Test func anUnknownKind() {
    expectError(
      """
      [[sources]]
      name = "X"
      kind = "ftp"
      """, line: 3, mentions: ["kind", "web, webdav, rclone, command, folder"])
  }

  @Test(arguments: ["ftp://h/api", "file:///tmp", "http://", "127.0.0.1:8765/api"])
  func aURLThatIsNotHTTP(url: String) {
    expectError(
      """
      [[sources]]
      kind = "web"
      name = "Stock"
      url = "\(url)"
      """, line: 4, mentions: ["url", "http://"])
  }

  @Test func aCommandThatIsNotAList() {
    expectError(
      """
      [[sources]]
      kind = "command"
      name = "C"
      command = "python3 source.py"
      """, line: 4, mentions: ["command", "list"])
    expectError(
      """
      [[sources]]
      kind = "command"
      name = "C"
      command = ["python3", 3]
      """, line: 4, mentions: ["command", "list of strings"])
    expectError(
      """
      [[sources]]
      kind = "command"
      name = "C"
      command = []
      """, line: 4, mentions: ["command"])
  }

  @Test func aTimeoutOutOfRange() {
    for value in ["0", "-1", "601", "\"10\"", "nan"] {
      expectError(
        """
        [[sources]]
        kind = "command"
        name = "C"
        command = ["x"]
        timeout = \(value)
        """, line: 5, mentions: ["timeout"])
    }
  }

  @Test func duplicateNamesIgnoringCase() {
    expectError(
      """
      [[sources]]
      kind = "folder"
      name = "Photos"
      path = "/a"

      [[sources]]
      kind = "folder"
      name = "photos"
      path = "/b"
      """, line: 6, mentions: ["photos", "already"])
  }

  @Test func anUnclosedString() {
    expectError(
      """
      [[sources]]
      kind = "folder"
      name = "Photos
      path = "/a"
      """, line: 3, mentions: ["not closed"])
  }

  @Test func anUnclosedList() {
    expectError(
      """
      [[sources]]
      kind = "command"
      name = "C"
      command = ["a",
        "b"
      """, line: 5, mentions: ["not closed"])
  }

  @Test func anUnknownTable() {
    expectError(
      """
      [[sources]]
      kind = "folder"
      name = "Photos"
      path = "/a"
      [settings]
      """, line: 5, mentions: ["[settings]"])
    expectError("[source]\n", line: 1, mentions: ["[source]"])
  }

  @Test func aTopLevelKey() {
    expectError(
      """
      # theme first
      theme = "dark"
      [[sources]]
      """, line: 2, mentions: ["theme", "[[sources]]"])
  }

  @Test func aBadEscape() {
    expectError(
      """
      [[sources]]
      kind = "folder"
      name = "a\\qb"
      """, line: 3, mentions: ["\\q"])
    expectError(
      """
      [[sources]]
      kind = "folder"
      name = "\\uD800"
      """, line: 3, mentions: ["\\u"])
  }

  @Test func escapesAndLiteralStrings() throws {
    let text = """
      [[sources]]
      kind = "folder"
      name = "Caf\\u00e9 \\"2\\""
      path = 'C:\\raw\\n'
      """
    let config = try ConfigFile.parse(text, path: Self.path, home: "/h")
    #expect(config.sources == [.folder(name: "Café \"2\"", path: "C:\\raw\\n")])
  }

  @Test func aMissingOptionalFileIsNil() throws {
    let folder = ScratchFolder()
    let path = folder.url.appendingPathComponent("config.toml").path
    #expect(try ConfigFile.load(path: path, required: false, home: "/h") == nil)
    #expect(throws: ConfigFile.Error.self) { try ConfigFile.load(path: path, required: true, home: "/h") }
    do {
      _ = try ConfigFile.load(path: path, required: true, home: "/h")
    } catch {
      #expect(error.description.contains(path))
    }
  }

  @Test func loadReadsTheFile() throws {
    let folder = ScratchFolder()
    let path = folder.url.appendingPathComponent("config.toml").path
    TestImages.write(
      Array("[[sources]]\nkind = \"folder\"\nname = \"P\"\npath = \"~/p\"\n".utf8), to: URL(fileURLWithPath: path))
    let config = try #require(try ConfigFile.load(path: path, required: false, home: "/home/ann"))
    #expect(config.sources == [.folder(name: "P", path: "/home/ann/p")])
    #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x"]) == "/x/picker-tui/config.toml")
  }

  @Test func namesSharingATokenVariableAreRefused() {
    let text = """
      [[sources]]
      kind = "folder"
      name = "My Stock"
      path = "/a"

      [[sources]]
      kind = "folder"
      name = "My-Stock"
      path = "/b"
      """
    expectError(text, line: 6, mentions: ["My-Stock", "PICKER_TUI_MY_STOCK_TOKEN"])
  }

  @Test func aByteOrderMarkIsSkipped() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bom-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("config.toml")
    try Data("\u{FEFF}[[sources]]\nkind = \"folder\"\nname = \"A\"\npath = \"/a\"\n".utf8).write(to: file)
    let config = try ConfigFile.load(path: file.path, required: true, home: "/h")
    #expect(config?.sources == [.folder(name: "A", path: "/a")])
  }

  @Test func multiLineStringsAndInlineTablesAreRead() throws {
    let text = """
      thumbnails = 'symbols'

      [[sources]]
      kind = "command"
      name = '''Shoe
      box'''
      command = ["python3", '''/opt/shoe box.py''', \"""--say=\\"hi\\"\"""]

      [[sources]]
      'kind' = "folder"
      name = "Holiday"
      path = \"""
      /srv/\\
          holiday\"""
      """
    let config = try ConfigFile.parse(text, path: Self.path, home: "/home/ann")
    #expect(config.thumbnails == .symbols)
    #expect(
      config.sources == [
        .command(name: "Shoe\nbox", command: ["python3", "/opt/shoe box.py", "--say=\"hi\""], timeout: 10),
        .folder(name: "Holiday", path: "/srv/holiday"),
      ])
    let inline = try ConfigFile.parse(
      """
      sources = [{ kind = "folder", name = "A", path = "/a" }, { kind = "folder", name = "B", path = "/b", icon = "B" }]
      """, path: Self.path, home: "/h")
    #expect(inline.sources == [.folder(name: "A", path: "/a"), .folder(name: "B", path: "/b")])
    #expect(inline.icons == ["B": "B"])
  }

  @Test func errorsNameTheLineAfterAMultiLineString() {
    expectError(
      """
      [[sources]]
      kind = "folder"
      name = '''A
      name = B
      '''
      path = "/a"
      colour = "red"
      """, line: 7, mentions: ["colour", "unknown key", "its keys: kind, name, icon, path"])
    expectError("[[sources]]\nname = \"\"\"never\nclosed\n", line: 2, mentions: ["multi-line string is not closed"])
    expectError(
      "sources = [{ kind = \"folder\", name = \"A\" path = \"/a\" }]\n", line: 1, mentions: ["inline table"])
    expectError("sources = [{ kind = \"folder\",\n name = \"A\" }]\n", line: 1, mentions: ["not closed on its line"])
    expectError("[[sources]]\ncommand = [\"x\", }]\n", line: 2, mentions: ["expected a value"])
  }

  @Test func keysRebindActionsOfAnyMode() throws {
    let file = try ConfigFile.parse(
      """
      [keys]
      move-down = ["n", "down"]
      toggle = "x"
      [keys.preview]
      next = ["space", "right"]
      """, path: Self.path)
    #expect(
      file.keys == [
        KeyRebinding(mode: "grid", action: "move-down", keys: [.char("n"), .down]),
        KeyRebinding(mode: "grid", action: "toggle", keys: [.char("x")]),
        KeyRebinding(mode: "preview", action: "next", keys: [.char(" "), .right]),
      ])
    let maps = KeyMaps.standard(with: file.keys)
    #expect(maps.grid.action(for: .char("n")) == .moveDown)
    #expect(maps.grid.action(for: .char("j")) == nil)
    #expect(maps[PreviewMode.self].action(for: .char(" ")) == .next)
  }

  @Test func keysReportUnknownActionsKeysAndModes() {
    expectError(
      "[keys]\nmove-sideways = \"x\"", line: 2, mentions: ["[keys]", "unknown action move-sideways", "move-down"])
    expectError("[keys]\ntoggle = \"hyper-x\"", line: 2, mentions: ["toggle", "\"hyper-x\" is not a key", "ctrl-a"])
    expectError("[keys]\ntoggle = 3", line: 2, mentions: ["expected a key or a list of keys"])
    expectError("[keys.tray]\nnext-field = \"x\"", line: 2, mentions: ["[keys.tray]", "unknown action next-field"])
    expectError("[keys.nowhere]\n", line: 1, mentions: ["unknown table [keys.nowhere]", "preview"])
  }
}
