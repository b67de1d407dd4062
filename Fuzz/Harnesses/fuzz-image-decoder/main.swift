// Fuzzes the image decoders and the metadata readers as a tile and the
// preview's facts panel use them: the format sniffer, then JPEG (EXIF
// thumbnail, DCT scaling, ICC), PNG, WebP, GIF, HEIF, TIFF, JPEG XL, camera
// RAW and BMP through their libraries, and the hand-written parts around
// them (EXIF and TIFF header walks, chunk searches, orientation, fitting).
// The same bytes then go through a file, since the facts reader (the
// header reader, LibRaw's identification) and the file decoder's
// head-first path read paths. A decoding error is the expected answer;
// traps, ASan reports and hangs are findings. The library index's header
// reader (dates taken, camera, GPS) reads the same file.
import Foundation
import FuzzSupport
import PickerCore

// LibRaw is left out: Debian's 0.20 crashes on mutated DNGs within seconds,
// which is why the picker runs it in a helper process (RawIsolation). With
// RAWs off, TIFF-headed RAWs still reach libtiff.
RawIsolation.turnOff()
// A small pixel limit keeps each run fast; the limit itself is under test.
let decoder = ImageDecoder(maxPixels: 4_000_000)
let scratch = PathBytes("/dev/shm/picker-tui-fuzz-\(getpid()).img")
// libFuzzer ends with exit(): the scratch file goes then, not left in
// memory-backed /dev/shm after every run.
atexit { unlink(scratch.lossyString) }

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let box = PixelSize(width: 160, height: 120)
  let enough = PixelSize(width: 96, height: 72)
  if let decoded = try? decoder.decode(bytes: bytes, covering: box, enough: enough) {
    // Whatever came out must be as large as it says.
    precondition(decoded.image.width > 0 && decoded.image.height > 0)
  }
  guard FileManager.default.createFile(atPath: scratch.lossyString, contents: Data(bytes)) else { return 0 }
  _ = try? decoder.decode(file: scratch, covering: box, enough: enough)
  _ = FactsReader.read(scratch, name: "fuzz")
  // The library index's header reader: its own EXIF, TIFF, PNG, WebP and
  // ISOBMFF walks over the same bytes, from the file as a scan reads it.
  _ = PhotoMetadataReader.read(path: scratch, name: Array("fuzz.jpg".utf8), modified: timespec(), latestDay: 30_000)
  return 0
}

runLibFuzzer(fuzz)
