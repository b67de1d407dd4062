import Foundation

/// Bytes ready for the decoder: a local file it opens itself (so it can read
/// only the head of a camera JPEG), or bytes already in memory.
public enum LoadedImageData: Sendable {
  case file(PathBytes)
  case bytes([UInt8])
}

/// One link of the loader chain: the pipeline asks each loader in turn
/// whether it handles a reference. Remote and custom schemes plug in here.
/// `load` runs on a pipeline worker and may block; it should give up when
/// `isCancelled` turns true.
public protocol ImageLoader: Sendable {
  func canHandle(_ reference: ImageReference) -> Bool
  func load(_ reference: ImageReference, isCancelled: @Sendable () -> Bool) throws(ImageDecodingError)
    -> LoadedImageData
}

/// Local files: nothing to fetch; the decoder reads the file.
public struct FileLoader: ImageLoader {
  public init() {}

  public func canHandle(_ reference: ImageReference) -> Bool {
    if case .file = reference { return true }
    return false
  }

  public func load(_ reference: ImageReference, isCancelled: @Sendable () -> Bool) throws(ImageDecodingError)
    -> LoadedImageData
  {
    guard case .file(let path) = reference else { throw ImageDecodingError("not a file") }
    return .file(path)
  }
}

/// `data:` URLs (RFC 2397), base64 or percent-encoded.
public struct DataURLLoader: ImageLoader {
  public init() {}

  public func canHandle(_ reference: ImageReference) -> Bool {
    if case .url(let url) = reference { return url.lowercased().hasPrefix("data:") }
    return false
  }

  public func load(_ reference: ImageReference, isCancelled: @Sendable () -> Bool) throws(ImageDecodingError)
    -> LoadedImageData
  {
    guard case .url(let url) = reference, let comma = url.firstIndex(of: ",") else {
      throw ImageDecodingError("malformed data: URL")
    }
    let header = url[url.index(url.startIndex, offsetBy: 5)..<comma].lowercased()
    let payload = String(url[url.index(after: comma)...])
    if header.hasSuffix(";base64") {
      guard let data = Data(base64Encoded: payload, options: .ignoreUnknownCharacters) else {
        throw ImageDecodingError("malformed base64 in data: URL")
      }
      return .bytes(Array(data))
    }
    guard let text = payload.removingPercentEncoding else { throw ImageDecodingError("malformed data: URL") }
    return .bytes(Array(text.utf8))
  }
}
