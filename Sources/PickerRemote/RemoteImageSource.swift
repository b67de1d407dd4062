/// A source whose thumbnails and originals are fetched through it: with its
/// credentials (web), or through its own protocol (command). Both calls
/// block; they run on the pipeline's network workers and on download
/// threads, never on the main thread.
public protocol RemoteImageSource: Sendable {
  var id: String { get }
  /// A thumbnail's (or a preview's) bytes, or a local file holding them;
  /// `progress` hears of bytes received and expected where it can.
  func fetchThumbnail(
    _ url: String, isCancelled: @escaping @Sendable () -> Bool, progress: (@Sendable (Int64, Int64?) -> Void)?
  ) throws(SourceError) -> LoadedImageData
  /// Writes an original into `file`, reporting bytes received and expected.
  func download(
    _ url: String, into file: Int32, progress: @escaping @Sendable (Int64, Int64?) -> Void,
    isCancelled: @escaping @Sendable () -> Bool
  ) throws(SourceError)
}

/// Thumbnails of remote sources, through the source that listed them.
public struct RemoteImageLoader: ImageLoader {
  private let sources: [String: any RemoteImageSource]

  public init(sources: [any RemoteImageSource]) {
    self.sources = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  public var usesNetwork: Bool { true }

  public func canHandle(_ reference: ImageReference) -> Bool {
    if case .remote(let source, _) = reference { return sources[source] != nil }
    return false
  }

  public func load(_ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool)
    throws(ImageDecodingError) -> LoadedImageData
  {
    try fetch(reference, isCancelled: isCancelled, progress: nil)
  }

  public func load(
    _ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool,
    progress: @escaping @Sendable (Int64, Int64?) -> Void
  ) throws(ImageDecodingError) -> LoadedImageData {
    try fetch(reference, isCancelled: isCancelled, progress: progress)
  }

  private func fetch(
    _ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool,
    progress: (@Sendable (Int64, Int64?) -> Void)?
  ) throws(ImageDecodingError) -> LoadedImageData {
    guard case .remote(let id, let url) = reference, let source = sources[id] else {
      throw ImageDecodingError("no source for this image")
    }
    do {
      return try source.fetchThumbnail(url, isCancelled: isCancelled, progress: progress)
    } catch {
      throw ImageDecodingError(error.message)
    }
  }
}
