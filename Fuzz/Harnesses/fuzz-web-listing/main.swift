// Fuzzes a web source's listing body as WebSource.list reads it: JSON
// parsing, then RemoteListing.page with URLs resolved against the base, then
// the Origin every image request compares (credentials go to the source's
// origin only). Errors are expected; traps are not.
import FuzzSupport
import PickerCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let body = Array(UnsafeBufferPointer(start: data, count: size))
  guard let json = JSONValue.parse(body),
    let page = try? RemoteListing.page(from: json, sourceID: "web:fuzz", base: "http://127.0.0.1:8765/api")
  else { return 0 }
  for item in page.items {
    for case .remote(_, let url)? in [item.thumbnail, item.original] { _ = Origin(url) }
  }
  return 0
}

runLibFuzzer(fuzz)
