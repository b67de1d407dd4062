import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct JSONRPCTests {
  func object(_ line: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
  }

  func parse(_ text: String) -> Result<JSONRPC.Message, JSONRPC.RemoteError> {
    JSONRPC.parse(Array(text.utf8))
  }

  @Test func aRequestIsOneLine() throws {
    let line = JSONRPC.request(id: 7, method: "list", params: ["folder": "a\nb", "offset": 0, "limit": 50])
    #expect(line.last == UInt8(ascii: "\n"))
    #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1, "a newline inside a value must be escaped")
    let message = try object(line)
    #expect(message["jsonrpc"] as? String == "2.0")
    #expect(message["id"] as? Int == 7)
    #expect(message["method"] as? String == "list")
    let params = try #require(message["params"] as? [String: Any])
    #expect(params["folder"] as? String == "a\nb")
    #expect(params["limit"] as? Int == 50)
  }

  @Test func aNotificationHasNoID() throws {
    let line = JSONRPC.notification(method: "shutdown")
    #expect(line.last == UInt8(ascii: "\n"))
    let message = try object(line)
    #expect(message["id"] == nil)
    #expect(message["method"] as? String == "shutdown")
    #expect(message["jsonrpc"] as? String == "2.0")
  }

  @Test func results() {
    #expect(
      parse(#"{"jsonrpc":"2.0","id":3,"result":{"items":[]}}"#) == .success(.response(id: 3, .success(["items": []]))))
    // A null result is still a result (a `shutdown` request is answered so).
    #expect(parse(#"{"jsonrpc":"2.0","id":4,"result":null}"#) == .success(.response(id: 4, .success(nil))))
  }

  @Test func errors() {
    #expect(
      parse(#"{"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"wrong token"}}"#)
        == .success(.response(id: 5, .failure(JSONRPC.RemoteError(code: -32001, message: "wrong token")))))
    guard case .success(.response(6, .failure(let error))) = parse(#"{"jsonrpc":"2.0","id":6,"error":{}}"#) else {
      Issue.record("an error without fields is still an error answer")
      return
    }
    #expect(!error.message.isEmpty)
  }

  @Test func anErrorWithANullIDIsTheSourceNotReadingARequest() {
    #expect(
      parse(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#)
        == .success(.unattributedError(JSONRPC.RemoteError(code: -32700, message: "Parse error"))))
    // A result with a null id answers nothing: still refused.
    guard case .failure = parse(#"{"jsonrpc":"2.0","id":null,"result":1}"#) else {
      Issue.record("a result without an id must be refused")
      return
    }
  }

  @Test func notificationsFromTheSource() {
    #expect(parse(#"{"jsonrpc":"2.0","method":"progress","params":{}}"#) == .success(.notification(method: "progress")))
  }

  @Test func aLineThatIsNotJSON() {
    guard case .failure(let error) = parse("Traceback (most recent call last):") else {
      Issue.record("not JSON must fail")
      return
    }
    #expect(error.message.contains("not JSON"))
    #expect(error.message.contains("Traceback"))
    guard case .failure(let long) = parse(String(repeating: "x", count: 500)) else { return }
    #expect(long.message.count < 200, "the preview is cut short")
  }

  @Test(arguments: [
    #"{"id":1,"result":1}"#,  // no jsonrpc
    #"{"jsonrpc":"1.0","id":1,"result":1}"#,
    #"{"jsonrpc":"2.0","result":1}"#,  // no id
    #"{"jsonrpc":"2.0","id":1}"#,  // neither result nor error
    #"[1,2]"#,
    #""text""#,
  ])
  func jsonThatIsNotJSONRPC(line: String) {
    guard case .failure(let error) = parse(line) else {
      Issue.record("\(line) must be refused")
      return
    }
    #expect(error.message.contains(line), "the message quotes the line")
  }

  @Test func splitterJoinsChunks() throws {
    var splitter = LineSplitter()
    #expect(try splitter.append(Array(#"{"a":"#.utf8)) == [])
    #expect(try splitter.append(Array("1}".utf8)) == [])
    #expect(try splitter.append(Array("\n{".utf8)) == [Array(#"{"a":1}"#.utf8)])
    #expect(try splitter.append(Array("}\n".utf8)) == [Array("{}".utf8)])
  }

  @Test func splitterDropsCRAndReturnsEveryLine() throws {
    var splitter = LineSplitter()
    #expect(try splitter.append(Array("one\r\ntwo\n\nthree\r".utf8)) == [Array("one".utf8), Array("two".utf8), []])
    // The CR arrived in an earlier chunk than its LF.
    #expect(try splitter.append(Array("\nfour".utf8)) == [Array("three".utf8)])
    #expect(try splitter.append(Array("\n".utf8)) == [Array("four".utf8)])
  }

  @Test func aLongLineInManyReadsComesOutWhole() throws {
    // 8 MB in 64 KB reads: each read searches only its own bytes.
    var splitter = LineSplitter()
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
    for _ in 0..<128 { #expect(try splitter.append(chunk) == []) }
    let lines = try splitter.append(Array("\nnext\n".utf8))
    #expect(lines.count == 2 && lines[0].count == 8 << 20 && lines[1] == Array("next".utf8))
  }

  @Test func aLineTooLongThrows() throws {
    var splitter = LineSplitter(maxLineBytes: 8)
    #expect(try splitter.append(Array("12345678".utf8)) == [])
    #expect(throws: LineSplitter.TooLong.self) { try splitter.append(Array("9".utf8)) }

    var other = LineSplitter(maxLineBytes: 8)
    #expect(try other.append(Array("short\n1234".utf8)) == [Array("short".utf8)])
    #expect(throws: LineSplitter.TooLong.self) { try other.append(Array("56789".utf8)) }
  }

  @Test func aCompleteLineTooLongThrowsToo() {
    // The documented limit is on a line's length, however it arrives.
    var splitter = LineSplitter(maxLineBytes: 8)
    #expect(throws: LineSplitter.TooLong.self) { try splitter.append(Array("123456789012\n".utf8)) }
  }
}
