import Foundation

/// Bytes ready for the decoder: a local file it opens itself (so it can read
/// only the head of a camera JPEG), or bytes already in memory.
public enum LoadedImageData: Sendable {
  case file(PathBytes)
  case bytes([UInt8])
  /// Only the first bytes of a JPEG (a ranged read), holding its EXIF
  /// thumbnail: that thumbnail is what is decoded, whatever its size.
  case head([UInt8])
}

/// One link of the loader chain: the pipeline asks each loader in turn
/// whether it handles a reference. Remote and custom schemes plug in here.
/// `load` runs on a pipeline worker and may block; it should give up when
/// `isCancelled` turns true.
public protocol ImageLoader: Sendable {
  /// Loads over the network: such loads run on the pipeline's network
  /// workers, so a slow server never holds a decoding thread.
  var usesNetwork: Bool { get }
  func canHandle(_ reference: ImageReference) -> Bool
  func load(_ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool) throws(ImageDecodingError)
    -> LoadedImageData
  /// The same, telling `progress` the bytes received and expected while it
  /// fetches (a preview's original over the network).
  func load(
    _ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool,
    progress: @escaping @Sendable (Int64, Int64?) -> Void
  ) throws(ImageDecodingError) -> LoadedImageData
}

extension ImageLoader {
  public var usesNetwork: Bool { false }

  /// Loaders that do not fetch have no progress to tell.
  public func load(
    _ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool,
    progress: @escaping @Sendable (Int64, Int64?) -> Void
  ) throws(ImageDecodingError) -> LoadedImageData {
    try load(reference, isCancelled: isCancelled)
  }
}

/// Local files: nothing to fetch; the decoder reads the file.
public struct FileLoader: ImageLoader {
  public init() {}

  public func canHandle(_ reference: ImageReference) -> Bool {
    if case .file = reference { return true }
    return false
  }

  public func load(_ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool) throws(ImageDecodingError)
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

  public func load(_ reference: ImageReference, isCancelled: @escaping @Sendable () -> Bool) throws(ImageDecodingError)
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
    return .bytes(try Self.percentDecoded(Array(payload.utf8)))
  }

  /// %XX escapes to bytes (image bytes need not be UTF-8).
  static func percentDecoded(_ input: [UInt8]) throws(ImageDecodingError) -> [UInt8] {
    func hex(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
      default: return nil
      }
    }
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = 0
    while index < input.count {
      if input[index] == UInt8(ascii: "%") {
        guard index + 2 < input.count, let high = hex(input[index + 1]), let low = hex(input[index + 2]) else {
          throw ImageDecodingError("malformed data: URL")
        }
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(input[index])
        index += 1
      }
    }
    return output
  }
}
