import Foundation

/// Ends the processes sources started, once the picker is done.
enum SourceShutdown {
  /// Sends every command source `shutdown`, together, and waits for them
  /// (each is given half a second, then ended), and stops the shared rclone
  /// daemon if an rclone source started one.
  static func stop(_ sources: [any PhotoSource]) {
    let group = DispatchGroup()
    for case let source as CommandSource in sources {
      DispatchQueue.global().async(group: group) { source.stop() }
    }
    DispatchQueue.global().async(group: group) { RcloneDaemon.stopAll() }
    group.wait()
  }
}
