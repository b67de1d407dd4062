// Fuzzes the reading of stars, rejects and labels from XMP
// (pk_xmp_culling_read through XMPCulling.read): the bytes of a sidecar or
// of a photo's XMP segment, as hostile as a file found on a disk can be.
// No answer is wrong; only a trap, an overflow or a hang is a finding.
import FuzzSupport
import PickerCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let culling = XMPCulling.read(bytes) {
    // What is read is always a verdict the picker can show.
    precondition((-1...5).contains(culling.rating))
  }
  return 0
}

runLibFuzzer(fuzz)
