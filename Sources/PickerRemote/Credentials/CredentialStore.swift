import Foundation

/// Sign-in answers kept between runs: one JSON file per source under
/// `$XDG_STATE_HOME/picker-tui/credentials/`, folder 0700, files 0600.
///
/// `PICKER_TUI_<NAME>_TOKEN` in the environment takes precedence and is
/// never written to disk. Nothing here logs or prints a value.
public struct CredentialStore: Sendable {
  public let folder: String
  private let environment: [String: String]

  public init(folder: String, environment: [String: String] = [:]) {
    self.folder = folder
    self.environment = environment
  }

  public static func forCurrentUser(environment: [String: String]) -> CredentialStore {
    CredentialStore(
      folder: PrivateFiles.stateFolder(environment: environment) + "/credentials", environment: environment)
  }

  /// "My Stock" → "MY_STOCK": the NAME in PICKER_TUI_<NAME>_TOKEN.
  public static func environmentName(of source: String) -> String {
    String(
      source.uppercased().unicodeScalars.map { scalar -> Character in
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)) ? Character(scalar) : "_"
      })
  }

  /// The token the environment gives for a source, if any.
  public func environmentToken(for source: String) -> String? {
    let value = environment["PICKER_TUI_\(Self.environmentName(of: source))_TOKEN"]
    return value?.isEmpty == false ? value : nil
  }

  /// One file per source name, the name kept whole: ASCII letters, digits,
  /// "-" and "_" as they are, every other byte as %XX, so two names never
  /// share a file (nor one source's token).
  public func path(for source: String) -> String {
    var name = ""
    for byte in source.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        name.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        name += String(format: "%%%02X", byte)
      }
    }
    return folder + "/" + name + ".json"
  }

  /// The answers saved after the last successful sign-in.
  public func answers(for source: String) -> [String: String]? {
    guard let bytes = FileIO.readSmallFile(path(for: source)),
      case .object(let fields)? = JSONValue.parse(bytes)
    else { return nil }
    return fields.compactMapValues(\.string)
  }

  public func save(_ answers: [String: String], for source: String) throws(SourceError) {
    let json = JSONValue.object(answers.mapValues(JSONValue.string))
    try PrivateFiles.write(json.encoded + [UInt8(ascii: "\n")], to: path(for: source))
  }

  public func remove(for source: String) {
    unlink(path(for: source))
  }
}
