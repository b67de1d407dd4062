// Fuzzes what a command source's stdout goes through, in RPCConnection's
// order: LineSplitter framing, JSONRPC.parse per line, and an answer read as
// a page as CommandSource.page does. Errors are expected; traps are not.
import FuzzSupport
import PickerCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let first = bytes.first else { return 0 }
  // The first byte picks the read sizes (a pipe may split the stream
  // anywhere); the rest is the stream. A small line limit makes the TooLong
  // path reachable with short inputs.
  var chunkSizes = ChunkSizes(seed: first, limit: 64)
  var splitter = LineSplitter(maxLineBytes: 1024)
  var offset = 1
  while offset < bytes.count {
    let end = min(bytes.count, offset + chunkSizes.next())
    let lines: [[UInt8]]
    do {
      lines = try splitter.append(bytes[offset..<end])
    } catch {
      return 0  // RPCConnection ends the process here
    }
    offset = end
    // Blank lines are skipped, as RPCConnection does.
    for line in lines where !line.allSatisfy({ $0 == 32 || $0 == 9 }) {
      guard case .success(.response(_, .success(let result))) = JSONRPC.parse(line) else { continue }
      _ = try? RemoteListing.page(from: result, sourceID: "command:fuzz", base: nil)
    }
  }
  return 0
}

runLibFuzzer(fuzz)
