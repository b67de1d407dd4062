/// JSON-RPC 2.0 as command sources speak it: one JSON object per line.
public enum JSONRPC {
  /// The error code a source answers when the user must sign in first.
  public static let signInRequired = -32001

  public struct RemoteError: Error, Hashable, Sendable {
    public var code: Int
    public var message: String
  }

  /// What one line from a source can be.
  public enum Message: Hashable, Sendable {
    case response(id: Int, Result<JSONValue, RemoteError>)
    /// A request or notification from the source; the picker has none to
    /// answer, and ignores them.
    case notification(method: String)
    /// An error answered with `"id": null`: the source could not read a
    /// request of ours (JSON-RPC 2.0 says so for a parse error), so which
    /// one failed is not known.
    case unattributedError(RemoteError)
  }

  /// A request as one line, newline included.
  public static func request(id: Int, method: String, params: JSONValue) -> [UInt8] {
    let message: JSONValue = ["jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params]
    return message.encoded + [UInt8(ascii: "\n")]
  }

  public static func notification(method: String) -> [UInt8] {
    let message: JSONValue = ["jsonrpc": "2.0", "method": .string(method)]
    return message.encoded + [UInt8(ascii: "\n")]
  }

  /// Reads one line; the failure says why it is not JSON-RPC (for the UI).
  public static func parse(_ line: [UInt8]) -> Result<Message, RemoteError> {
    guard let json = JSONValue.parse(line), case .object(let fields) = json else {
      return .failure(RemoteError(code: -32700, message: "wrote a line that is not JSON: " + preview(line)))
    }
    if let method = fields["method"]?.string { return .success(.notification(method: method)) }
    if fields["jsonrpc"]?.string == "2.0", fields["id"] == .null, let error = fields["error"], case .object = error {
      let message = error["message"]?.string ?? "error without a message"
      return .success(.unattributedError(RemoteError(code: error["code"]?.int ?? 0, message: message)))
    }
    guard fields["jsonrpc"]?.string == "2.0", let id = fields["id"]?.int else {
      return .failure(
        RemoteError(code: -32600, message: "wrote JSON that is not a JSON-RPC 2.0 response: " + preview(line)))
    }
    if let error = fields["error"], case .object = error {
      let message = error["message"]?.string ?? "error without a message"
      return .success(.response(id: id, .failure(RemoteError(code: error["code"]?.int ?? 0, message: message))))
    }
    guard let result = fields["result"] else {
      return .failure(RemoteError(code: -32600, message: "answered without a result or an error: " + preview(line)))
    }
    return .success(.response(id: id, .success(result)))
  }

  /// The start of a bad line, for a message (sanitised when drawn).
  static func preview(_ line: [UInt8]) -> String {
    let text = String(decoding: line.prefix(60), as: UTF8.self)
    return line.count > 60 ? text + "…" : text
  }
}

/// Cuts a byte stream into lines; a line longer than `maxLineBytes` is an
/// error (a source gone astray must not fill memory).
public struct LineSplitter: Sendable {
  public let maxLineBytes: Int
  private var buffer: [UInt8] = []
  /// How far the buffer is known to hold no newline: a long line arriving
  /// in many reads is searched once, not once per read.
  private var searched = 0

  public init(maxLineBytes: Int = 64 << 20) { self.maxLineBytes = maxLineBytes }

  public struct TooLong: Error {}

  /// The complete lines in what has arrived so far, without their newlines
  /// (a trailing CR is dropped too).
  public mutating func append(_ bytes: some Collection<UInt8>) throws(TooLong) -> [[UInt8]] {
    buffer.append(contentsOf: bytes)
    var lines: [[UInt8]] = []
    var start = 0
    var from = searched
    while let newline = buffer[from...].firstIndex(of: UInt8(ascii: "\n")) {
      var end = newline
      if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      if end - start > maxLineBytes { throw TooLong() }
      lines.append(Array(buffer[start..<end]))
      start = newline + 1
      from = start
    }
    buffer.removeFirst(start)
    searched = buffer.count
    if buffer.count > maxLineBytes { throw TooLong() }
    return lines
  }
}
