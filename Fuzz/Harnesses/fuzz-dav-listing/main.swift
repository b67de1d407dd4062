// Fuzzes a WebDAV server's PROPFIND reply as the webdav source reads it:
// libxml2's reader with no DTD, entities or network (CNetworking's
// multistatus.c, instrumented), then DAVListing turning hrefs into items
// kept inside the base URL. Errors are expected; traps, ASan reports,
// hangs and memory over the limit are findings.
import FuzzSupport
import PickerCore

let base = "http://127.0.0.1:8080/remote.php/dav/files/alice/Photos/"

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let body = Array(UnsafeBufferPointer(start: data, count: size))
  guard let entries = try? Multistatus.parse(body) else { return 0 }
  let items = DAVListing.items(
    entries, folder: base, base: base, sourceID: "webdav:fuzz",
    previewRoot: DAVListing.nextcloudRoot(of: base))
  for item in items {
    // Whatever the reply said, nothing may point outside the base.
    precondition(item.id.hasPrefix(base), "an item outside the base: \(item.id)")
  }
  return 0
}

runLibFuzzer(fuzz)
