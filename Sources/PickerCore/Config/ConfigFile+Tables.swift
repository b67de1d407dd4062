import Foundation

/// The config's tables other than [[sources]], each read key by key: an
/// unknown key or a wrong value is an error naming its line.
extension ConfigFile {
  /// `[places]`: `home = [52.52, 13.40, 0.5]` names a circle (latitude,
  /// longitude, radius in km up to 100); `"Detroit" = "Windsor"` (or
  /// `"Detroit, Michigan" = …`) shows a place under another name.
  static func readPlaces(_ table: TOMLSubset.Table, path: String) throws(Error) -> PlaceCorrections {
    var corrections = PlaceCorrections()
    for (key, value) in table.values {
      let name = key.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { throw Error(description: "\(path):\(value.line): a place needs a name") }
      switch value.kind {
      case .string(let other):
        guard !other.trimmingCharacters(in: .whitespaces).isEmpty else {
          throw Error(description: "\(path):\(value.line): \(key): expected the name to show instead, like \"Windsor\"")
        }
        corrections.renames.append(PlaceCorrections.Rename(from: name, to: other))
      case .array(let elements):
        let numbers = elements.compactMap { element -> Double? in
          switch element.kind {
          case .integer(let number): return Double(number)
          case .float(let number): return number
          default: return nil
          }
        }
        guard numbers.count == 3, elements.count == 3, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180,
          numbers[2] > 0, numbers[2] <= 100
        else {
          throw Error(
            description:
              "\(path):\(value.line): \(key): expected [latitude, longitude, radius in km], like [52.52, 13.40, 0.5]")
        }
        corrections.areas.append(
          PlaceCorrections.Area(name: name, latitude: numbers[0], longitude: numbers[1], radius: numbers[2]))
      default:
        throw Error(
          description:
            "\(path):\(value.line): \(key): expected a name (\"Windsor\") or [latitude, longitude, radius in km]")
      }
    }
    return corrections
  }

  /// `[stacks]`: `enabled` (true), `max_gap` (seconds between shots, 2),
  /// `max_distance` (differing hash bits, 10).
  /// `[xmp]`: how verdicts are written (`XMPWriteOptions`).
  static func readXMP(_ table: TOMLSubset.Table, path: String) throws(Error) -> XMPWriteOptions {
    var options = XMPWriteOptions()
    let namings = XMPWriteOptions.SidecarNaming.allCases.map(\.rawValue).joined(separator: ", ")
    for (key, value) in table.values {
      switch (key, value.kind) {
      case ("sidecar", .string(let text)) where XMPWriteOptions.SidecarNaming(rawValue: text) != nil:
        options.sidecar = XMPWriteOptions.SidecarNaming(rawValue: text)!
      case ("sidecar", _):
        throw Error(description: "\(path):\(value.line): sidecar: expected one of \(namings)")
      case ("embed", .bool(let on)):
        options.embed = on
      case ("embed", _):
        throw Error(description: "\(path):\(value.line): embed: expected true or false")
      default:
        throw Error(description: "\(path):\(value.line): unknown key \(key) in [xmp] (its keys: sidecar, embed)")
      }
    }
    return options
  }

  static func readStacks(_ table: TOMLSubset.Table, path: String) throws(Error)
    -> (enabled: Bool, rule: StackingRule)
  {
    var enabled = true
    var rule = StackingRule()
    for (key, value) in table.values {
      switch (key, value.kind) {
      case ("enabled", .bool(let on)):
        enabled = on
      case ("max_gap", .integer(let seconds)) where seconds >= 0 && seconds <= 3600:
        rule.maxGap = Double(seconds)
      case ("max_gap", .float(let seconds)) where seconds >= 0 && seconds <= 3600:
        rule.maxGap = seconds
      case ("max_distance", .integer(let bits)) where bits >= 0 && bits <= 64:
        rule.maxDistance = bits
      case ("enabled", _):
        throw Error(description: "\(path):\(value.line): enabled: expected true or false")
      case ("max_gap", _):
        throw Error(description: "\(path):\(value.line): max_gap: expected seconds between 0 and 3600, like 2 or 0.5")
      case ("max_distance", _):
        throw Error(description: "\(path):\(value.line): max_distance: expected a number of bits from 0 to 64")
      default:
        throw Error(
          description:
            "\(path):\(value.line): unknown key \(key) in [stacks] (its keys: enabled, max_gap, max_distance)")
      }
    }
    return (enabled, rule)
  }

  /// `[library]`: `roots` (folders, `~` for home) and `open` ("photos" or
  /// "folders").
  static func readLibrary(_ table: TOMLSubset.Table, path: String, home: String) throws(Error)
    -> (roots: [String]?, opensPhotos: Bool, liveVideos: Bool)
  {
    var roots: [String]?
    var opensPhotos = false
    var liveVideos = false
    for (key, value) in table.values {
      switch key {
      case "roots":
        guard case .array(let elements) = value.kind else {
          throw Error(description: "\(path):\(value.line): roots: expected a list of folders, like [\"~/Pictures\"]")
        }
        var folders: [String] = []
        for element in elements {
          guard case .string(var folder) = element.kind, !folder.isEmpty else {
            throw Error(description: "\(path):\(value.line): roots: expected a list of folders")
          }
          if folder == "~" || folder.hasPrefix("~/") { folder = home + folder.dropFirst() }
          folders.append(folder)
        }
        roots = folders
      case "open":
        guard case .string(let text) = value.kind, text == "photos" || text == "folders" else {
          throw Error(description: "\(path):\(value.line): open: expected \"photos\" or \"folders\"")
        }
        opensPhotos = text == "photos"
      case "live_videos":
        guard case .bool(let on) = value.kind else {
          throw Error(description: "\(path):\(value.line): live_videos: expected true or false")
        }
        liveVideos = on
      default:
        throw Error(
          description: "\(path):\(value.line): unknown key \(key) in [library] (its keys: live_videos, open, roots)")
      }
    }
    return (roots, opensPhotos, liveVideos)
  }

  /// `[keys]` binds grid actions, `[keys.tray]` the tray's, and so on:
  /// `move-down = ["j", "down"]`; an empty list unbinds the action.
  static func readKeys(_ table: TOMLSubset.Table, path: String, base: KeyMaps) throws(Error) -> [KeyRebinding] {
    let mode = table.name == "keys" ? "grid" : String(table.name.dropFirst("keys.".count))
    guard base.modeNames.contains(mode) else {
      throw Error(
        description:
          "\(path):\(table.line): unknown table [\(table.name)] (key modes: \(base.modeNames.dropFirst().joined(separator: ", ")))"
      )
    }
    var maps = base
    var rebindings: [KeyRebinding] = []
    for (action, value) in table.values {
      let names: [TOMLSubset.Value]
      switch value.kind {
      case .string: names = [value]
      case .array(let elements): names = elements
      default: throw Error(description: "\(path):\(value.line): \(action): expected a key or a list of keys")
      }
      var keys: [Key] = []
      for name in names {
        guard case .string(let text) = name.kind, let key = KeyNames.key(named: text) else {
          let shown =
            if case .string(let text) = name.kind { "\"\(text)\" is not a key" } else { "expected a key name" }
          throw Error(description: "\(path):\(value.line): \(action): \(shown) (\(KeyNames.explanation))")
        }
        keys.append(key)
      }
      if let problem = maps.rebind(mode: mode, action: action, to: keys) {
        let where_ = mode == "grid" ? "[keys]" : "[keys.\(mode)]"
        throw Error(description: "\(path):\(value.line): \(where_): \(problem)")
      }
      rebindings.append(KeyRebinding(mode: mode, action: action, keys: keys))
    }
    return rebindings
  }
}
