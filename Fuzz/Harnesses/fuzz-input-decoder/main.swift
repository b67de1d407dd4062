// Fuzzes the terminal input decoder (keys, mouse reports, terminal replies)
// the way the UI drives it: bytes arrive in reads of any size, and when a
// read leaves a sequence unfinished the escape or reply delay may pass
// (timeOut) before the next read. Only traps and hangs are findings.
import FuzzSupport
import PickerCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let first = bytes.first else { return 0 }
  // The first byte: its low 7 bits seed the read sizes, its high bit says
  // whether the delay passes after a read that leaves a sequence waiting.
  var chunkSizes = ChunkSizes(seed: first & 0x7F, limit: 16)
  let delayPasses = first & 0x80 != 0
  var decoder = InputDecoder()
  var events: [TerminalInputEvent] = []
  var offset = 1
  while offset < bytes.count {
    let end = min(bytes.count, offset + chunkSizes.next())
    events += decoder.decode(Array(bytes[offset..<end]))
    offset = end
    if delayPasses && decoder.waiting != .none { events += decoder.timeOut() }
  }
  // Drain: delays pass with no more input. Two settle any state (a cut
  // reply, then the skip of its rest); the bound keeps a decoder that never
  // settles from hanging the harness.
  for _ in 0..<3 where decoder.waiting != .none { events += decoder.timeOut() }
  // Mouse reports go on to the click tracker, as in the UI.
  var clicks = ClickTracker()
  for case .mouse(let report) in events { _ = clicks.event(for: report, at: 0) }
  return 0
}

runLibFuzzer(fuzz)
