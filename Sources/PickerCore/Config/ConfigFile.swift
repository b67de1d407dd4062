import Foundation

/// One source the config lists, in bar order.
public enum SourceConfig: Hashable, Sendable {
  case web(name: String, url: String, auth: WebAuthKind, timeout: Double)
  /// A WebDAV folder (Nextcloud, ownCloud, a NAS): the same keys as web.
  case webdav(name: String, url: String, auth: WebAuthKind, timeout: Double)
  case command(name: String, command: [String], timeout: Double)
  /// A remote of the user's rclone config ("dropbox:Camera Uploads").
  case rclone(name: String, remote: String, executable: String, timeout: Double)
  case folder(name: String, path: String)

  public var name: String {
    switch self {
    case .web(let name, _, _, _), .webdav(let name, _, _, _), .command(let name, _, _), .folder(let name, _),
      .rclone(let name, _, _, _):
      return name
    }
  }
}

/// `$XDG_CONFIG_HOME/picker-tui/config.toml`:
///
///     [[sources]]
///     kind = "web"            # web | webdav | rclone | command | folder
///     name = "Stock"
///     url = "http://127.0.0.1:8765/api"
///     auth = "token"          # none | token | basic
///
/// Unknown keys are errors (a typo should not be ignored in silence), and
/// every error names the file, the line and the key.
public struct ConfigFile: Hashable, Sendable {
  public var sources: [SourceConfig]
  /// `thumbnails = "auto"` (top level): how thumbnails are drawn, unless
  /// `--thumbnails` says otherwise.
  public var thumbnails: ThumbnailMode?
  /// `icon = "…"` of a source, by its name: the source bar's glyph.
  public var icons: [String: String] = [:]
  /// `[keys]` (the grid) and `[keys.MODE]`: actions bound to other keys,
  /// in the file's order.
  public var keys: [KeyRebinding] = []
  /// `[library] roots = ["~/Pictures", …]`: where the Photos timeline
  /// looks when no folder is given (nil: the pictures folder).
  public var libraryRoots: [String]?
  /// `[library] open = "photos"`: the timeline is the tab shown first even
  /// with folder arguments.
  public var opensPhotos = false
  /// `[library] live_videos = true`: a picked Live Photo's MOV is printed
  /// on the line after it, as `--live-videos` does.
  public var printsLiveVideos = false
  /// `[stacks]`: near-identical shots grouped in listings by date
  /// (`enabled`, `max_gap` seconds, `max_distance` hash bits).
  public var stacksPhotos = true
  public var stackingRule = StackingRule()
  /// `[places]`: names for positions and places renamed (`PlaceCorrections`).
  public var placeCorrections = PlaceCorrections()
  /// `[xmp]`: the name of a new sidecar (`sidecar = "darktable" | "adobe"
  /// | "both"`) and `embed = true` to write into JPEGs.
  public var xmp = XMPWriteOptions()

  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  public static func defaultPath(environment: [String: String]) -> String {
    PrivateFiles.configFolder(environment: environment) + "/config.toml"
  }

  /// Reads the file; nil when it does not exist and `required` is false.
  /// `[keys.NAME]` tables may name the modes registered in `keys`.
  public static func load(path: String, required: Bool, home: String, keys base: KeyMaps = .standard) throws(Error)
    -> ConfigFile?
  {
    guard let data = FileManager.default.contents(atPath: path) else {
      if !required && !FileManager.default.fileExists(atPath: path) { return nil }
      throw Error(description: "cannot read the config file \(path)")
    }
    guard var text = String(data: data, encoding: .utf8) else {
      throw Error(description: "\(path): not UTF-8 text")
    }
    // Some editors start UTF-8 files with a byte-order mark.
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    return try parse(text, path: path, home: home, keys: base)
  }

  public static func parse(
    _ text: String, path: String, home: String = NSHomeDirectory(), keys base: KeyMaps = .standard
  ) throws(Error) -> ConfigFile {
    let tables: [TOMLSubset.Table]
    do {
      tables = try TOMLSubset.parse(text)
    } catch {
      throw Error(description: "\(path):\(error.line): \(error.message)")
    }
    var sources: [SourceConfig] = []
    var thumbnails: ThumbnailMode?
    var names: Set<String> = []
    var icons: [String: String] = [:]
    var keys: [KeyRebinding] = []
    var library: (roots: [String]?, opensPhotos: Bool, liveVideos: Bool) = (nil, false, false)
    var stacking: (enabled: Bool, rule: StackingRule) = (true, StackingRule())
    var places = PlaceCorrections()
    var xmp = XMPWriteOptions()
    /// PICKER_TUI_<NAME>_TOKEN must name one source only.
    var variables: [String: String] = [:]
    for table in tables {
      switch (table.name, table.isArrayElement) {
      case ("", false):
        for (key, value) in table.values {
          guard key == "thumbnails" else {
            throw Error(
              description:
                "\(path):\(value.line): unknown key \(key) (the top level has thumbnails; sources go in [[sources]])")
          }
          let modes = ThumbnailMode.allCases.map(\.rawValue)
          guard case .string(let text) = value.kind, let mode = ThumbnailMode(rawValue: text) else {
            throw Error(
              description: "\(path):\(value.line): thumbnails: expected one of \(modes.joined(separator: ", "))")
          }
          thumbnails = mode
        }
      case ("sources", true):
        let reader = SourceReader(table: table, path: path, home: home)
        let source = try reader.read()
        if let icon = try reader.string("icon", required: false) { icons[source.name] = icon }
        guard names.insert(source.name.lowercased()).inserted else {
          throw Error(description: "\(path):\(table.line): a source named \(source.name) is already listed")
        }
        let variable = "PICKER_TUI_\(CredentialStore.environmentName(of: source.name))_TOKEN"
        if let other = variables[variable] {
          throw Error(
            description: "\(path):\(table.line): name: \(source.name) and \(other) would share \(variable); rename one")
        }
        variables[variable] = source.name
        sources.append(source)
      case ("library", false):
        library = try readLibrary(table, path: path, home: home)
      case ("stacks", false):
        stacking = try readStacks(table, path: path)
      case ("places", false):
        places = try readPlaces(table, path: path)
      case ("xmp", false):
        xmp = try readXMP(table, path: path)
      case (let name, false) where name == "keys" || name.hasPrefix("keys."):
        keys += try readKeys(table, path: path, base: base)
      default:
        let brackets = table.isArrayElement ? "[[\(table.name)]]" : "[\(table.name)]"
        throw Error(description: "\(path):\(table.line): unknown table \(brackets)")
      }
    }
    var file = ConfigFile(sources: sources, thumbnails: thumbnails, icons: icons)
    file.keys = keys
    file.libraryRoots = library.roots
    file.opensPhotos = library.opensPhotos
    file.printsLiveVideos = library.liveVideos
    file.stacksPhotos = stacking.enabled
    file.stackingRule = stacking.rule
    file.placeCorrections = places
    file.xmp = xmp
    return file
  }
}

/// Reads one [[sources]] table, key by key.
private struct SourceReader {
  let table: TOMLSubset.Table
  let path: String
  let home: String

  func fail(_ line: Int, _ key: String, _ message: String) -> ConfigFile.Error {
    ConfigFile.Error(description: "\(path):\(line): \(key): \(message)")
  }

  func value(_ key: String) -> TOMLSubset.Value? { table.values.first { $0.key == key }?.value }

  func string(_ key: String, required: Bool) throws(ConfigFile.Error) -> String? {
    guard let value = value(key) else {
      if required { throw ConfigFile.Error(description: "\(path):\(table.line): [[sources]] needs \(key)") }
      return nil
    }
    guard case .string(let text) = value.kind, !text.isEmpty else {
      throw fail(value.line, key, "expected a non-empty string")
    }
    return text
  }

  func timeout() throws(ConfigFile.Error) -> Double? {
    guard let value = value("timeout") else { return nil }
    let seconds: Double
    switch value.kind {
    case .integer(let number): seconds = Double(number)
    case .float(let number): seconds = number
    default: throw fail(value.line, "timeout", "expected a number of seconds")
    }
    guard seconds > 0, seconds <= 600 else { throw fail(value.line, "timeout", "expected 0 to 600 seconds") }
    return seconds
  }

  func read() throws(ConfigFile.Error) -> SourceConfig {
    let kind = try string("kind", required: true)!
    let name = try string("name", required: true)!
    let allowed: Set<String>
    let source: SourceConfig
    switch kind {
    case "web", "webdav":
      allowed = ["kind", "name", "icon", "url", "auth", "timeout"]
      let url = try string("url", required: true)!
      guard URLResolver.isHTTP(url), Origin(url) != nil else {
        throw fail(value("url")!.line, "url", "expected an http:// or https:// URL")
      }
      var auth = WebAuthKind.none
      if let text = try string("auth", required: false) {
        guard let parsed = WebAuthKind(rawValue: text) else {
          throw fail(value("auth")!.line, "auth", "expected one of none, token, basic")
        }
        auth = parsed
      }
      let seconds = try timeout() ?? 30
      source =
        kind == "web"
        ? .web(name: name, url: url, auth: auth, timeout: seconds)
        : .webdav(name: name, url: url, auth: auth, timeout: seconds)
    case "command":
      allowed = ["kind", "name", "icon", "command", "timeout"]
      guard let value = value("command") else {
        throw ConfigFile.Error(description: "\(path):\(table.line): [[sources]] needs command")
      }
      guard case .array(let elements) = value.kind, !elements.isEmpty else {
        throw fail(value.line, "command", "expected a list of strings, like [\"python3\", \"source.py\"]")
      }
      var command: [String] = []
      for element in elements {
        guard case .string(let text) = element.kind else {
          throw fail(value.line, "command", "expected a list of strings")
        }
        command.append(text)
      }
      source = .command(name: name, command: command, timeout: try timeout() ?? 10)
    case "rclone":
      allowed = ["kind", "name", "icon", "remote", "rclone", "timeout"]
      let remote = try string("remote", required: true)!
      // "name:" or "name:path"; a bare path would be the local disk.
      guard let colon = remote.firstIndex(of: ":"), colon != remote.startIndex else {
        throw fail(value("remote")!.line, "remote", "expected a remote of your rclone config, like \"dropbox:Photos\"")
      }
      let executable = try string("rclone", required: false) ?? "rclone"
      source = .rclone(name: name, remote: remote, executable: executable, timeout: try timeout() ?? 30)
    case "folder":
      allowed = ["kind", "name", "icon", "path"]
      var folder = try string("path", required: true)!
      if folder == "~" || folder.hasPrefix("~/") { folder = home + folder.dropFirst() }
      source = .folder(name: name, path: folder)
    default:
      throw fail(value("kind")!.line, "kind", "expected one of web, webdav, rclone, command, folder")
    }
    if let unknown = table.values.first(where: { !allowed.contains($0.key) }) {
      let valid = allowed.sorted { a, b in a == "kind" || (b != "kind" && (a == "name" || (b != "name" && a < b))) }
      throw fail(
        unknown.value.line, unknown.key, "unknown key for a \(kind) source (its keys: \(valid.joined(separator: ", ")))"
      )
    }
    return source
  }
}
