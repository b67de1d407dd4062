import Foundation

/// Ends the processes sources started, once the picker is done.
enum SourceShutdown {
  /// Asks every source to stop, together, and waits for them (a command
  /// source is given half a second, then ended; a scan ends at its next
  /// file), and stops the shared rclone daemon if an rclone source started one.
  static func stop(_ sources: [any PhotoSource]) {
    let group = DispatchGroup()
    for source in sources {
      DispatchQueue.global().async(group: group) { source.stop() }
    }
    DispatchQueue.global().async(group: group) { RcloneDaemon.stopAll() }
    group.wait()
  }
}
