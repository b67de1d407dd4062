import Foundation

/// The XDG base directories, resolved one way everywhere: a variable that is
/// unset, empty or relative is ignored, as the spec says, and the default
/// under $HOME is used.
public enum XDGFolders {
  /// `$XDG_CONFIG_HOME`, else `~/.config`.
  public static func configHome(environment: [String: String]) -> String {
    folder("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
  }

  /// `$XDG_CACHE_HOME`, else `~/.cache`.
  public static func cacheHome(environment: [String: String]) -> String {
    folder("XDG_CACHE_HOME", fallback: ".cache", environment: environment)
  }

  /// `$XDG_STATE_HOME`, else `~/.local/state`.
  public static func stateHome(environment: [String: String]) -> String {
    folder("XDG_STATE_HOME", fallback: ".local/state", environment: environment)
  }

  private static func folder(_ variable: String, fallback: String, environment: [String: String]) -> String {
    if let value = environment[variable], value.hasPrefix("/") { return value }
    return (environment["HOME"] ?? NSHomeDirectory()) + "/" + fallback
  }
}
