import Foundation

/// Fetches the remote picks into the download folder, one after another,
/// each through the source that listed it. Files are created with O_EXCL
/// under names that never collide or leave the folder; on failure or
/// cancel, the files of this run are removed again.
public final class Downloader: Sendable {
  public let folder: String
  private let sources: [String: any RemoteImageSource]

  public init(folder: String, sources: [any RemoteImageSource]) {
    self.folder = folder
    self.sources = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The local path of every output, in order. Blocks.
  public func run(
    _ plan: DownloadPlan, progress: @escaping @Sendable (DownloadProgress) -> Void,
    isCancelled: @escaping @Sendable () -> Bool
  ) throws(DownloadFailure) -> [PathBytes] {
    guard PrivateFiles.makeFolder(folder) else { throw DownloadFailure(message: "cannot create the folder \(folder)") }
    var created: [String] = []
    /// Whose download failed, should it ask to sign in.
    var currentSource: String?
    var paths: [PathBytes] = []
    var status = DownloadProgress(id: plan.id, files: plan.remoteCount)
    do throws(SourceError) {
      for (output, title) in zip(plan.outputs, plan.titles) {
        switch output {
        case .local(let path):
          paths.append(path)
        case .remote(let sourceID, let url):
          guard let source = sources[sourceID] else { throw SourceError("no source to download \(url) from") }
          currentSource = sourceID
          let (path, fd) = try create(DownloadNaming.fileName(title: title, url: url))
          created.append(path)
          let before = status.totalReceived
          let throttle = ProgressThrottle()
          let atStart = status
          defer { close(fd) }
          try source.download(
            url, into: fd,
            progress: { received, expected in
              var update = atStart
              update.received = received
              update.expected = expected
              update.totalReceived = before + received
              if throttle.shouldReport() { progress(update) }
            }, isCancelled: isCancelled)
          var info = stat()
          let size = stat(path, &info) == 0 ? Int64(info.st_size) : 0
          status.finished += 1
          status.totalReceived = before + size
          status.received = 0
          status.expected = nil
          progress(status)
          paths.append(PathBytes(path))
        }
        if isCancelled() { throw SourceError("cancelled") }
      }
    } catch {
      for path in created { unlink(path) }
      throw DownloadFailure(
        message: error.message, sourceID: error.signIn == nil ? nil : currentSource, signIn: error.signIn)
    }
    return paths
  }

  /// Removes the downloaded files of a finished run (local outputs stay).
  public func remove(_ paths: [PathBytes], of plan: DownloadPlan) {
    for (path, output) in zip(paths, plan.outputs) {
      if case .remote = output { unlink(path.lossyString) }
    }
  }

  /// Creates the first free name; never follows a link or overwrites.
  private func create(_ name: [UInt8]) throws(SourceError) -> (String, Int32) {
    for attempt in 1...1000 {
      let candidate = String(decoding: DownloadNaming.candidate(name, attempt: attempt), as: UTF8.self)
      let path = (folder.hasSuffix("/") ? folder : folder + "/") + candidate
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if fd >= 0 { return (path, fd) }
      if errno != EEXIST { throw SourceError("cannot create \(path): \(String(cString: strerror(errno)))") }
    }
    throw SourceError("no free name for \(String(decoding: name, as: UTF8.self)) in \(folder)")
  }
}
