import Foundation
import PickerTUI

/// Where the picker looks with no folder given, and what it says when it
/// finds nothing to pick.
extension Pick {
  /// The XDG pictures folder, else ~/Pictures, else the current folder.
  static func defaultFolder(environment: [String: String]) -> PathBytes {
    PathBytes(defaultFolderCandidates(environment: environment).first(where: isFolder) ?? ".")
  }

  /// Where the pictures folder may be, in the order looked: the XDG
  /// pictures folder (the environment's, then user-dirs.dirs), ~/Pictures.
  static func defaultFolderCandidates(environment: [String: String]) -> [String] {
    let home = environment["HOME"] ?? NSHomeDirectory()
    var candidates: [String] = []
    if let xdg = environment["XDG_PICTURES_DIR"], !xdg.isEmpty { candidates.append(xdg) }
    let configHome = XDGFolders.configHome(environment: environment)
    if let configured = UserDirectories.picturesFolder(in: configHome + "/user-dirs.dirs", home: home) {
      candidates.append(configured)
    }
    candidates.append(home + "/Pictures")
    return candidates
  }

  static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }

  /// "nothing to pick from", and why when the list on stdin named only
  /// folders: they were skipped, and a folder is browsed as an argument.
  static func nothingToPick(skippedFolders sources: [any PhotoSource]) -> String {
    let skipped = sources.compactMap { ($0 as? GivenPathsSource)?.skippedFolders }.reduce(0, +)
    guard skipped > 0 else { return "nothing to pick from" }
    let folders = skipped == 1 ? "the folder" : "the \(skipped) folders"
    return
      "nothing to pick from: \(folders) in the list on stdin skipped (a list names photo files; "
      + "to browse a folder, give it as an argument: picker-tui DIR)"
  }

  /// A first run finding nothing says where it looked and how to name
  /// the library, rather than only "nothing to pick from".
  static func nothingInDefaultLibrary(environment: [String: String]) -> String {
    let looked = defaultFolderCandidates(environment: environment)
    let existing = looked.first { isFolder($0) }
    let missing = looked.filter { !isFolder($0) }
    let absent =
      missing.isEmpty ? "" : " (\(missing.joined(separator: ", ")) \(missing.count == 1 ? "does" : "do") not exist)"
    let searched = existing.map { "no photos in \($0)" } ?? "no photos in the current folder"
    return
      "nothing to pick from: \(searched)\(absent). Give a folder (picker-tui DIR), "
      + "or name your photo folders in \(ConfigFile.defaultPath(environment: environment)): "
      + "[library] roots = [\"~/Photos\"]"
  }
}
