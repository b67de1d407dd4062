// Fuzzes the config file parser: ConfigFile.parse over TOMLSubset, with
// arbitrary text. A thrown ConfigFile.Error is the expected answer to bad
// input; only a trap, an overflow or a hang is a finding.
import FuzzSupport
import PickerCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  // ConfigFile.load rejects invalid UTF-8 before parsing; repairing it
  // instead keeps every input useful to the parser.
  var text = String(decoding: bytes, as: UTF8.self)
  if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // as load does
  _ = try? ConfigFile.parse(text, path: "fuzz.toml", home: "/home/fuzz")
  return 0
}

runLibFuzzer(fuzz)
