// Fuzzes the thumbnail cache's own PNG writer (png_write.c) and its
// Huffman-only deflate (huffman_deflate.c) by round trip: the input
// becomes a picture, the picture a PNG, and libpng and zlib must give back
// every pixel exactly. The first bytes shape the picture: its width and
// height (1-128), whether it has alpha, and how few levels its bytes take
// (few levels make the skewed frequencies that test the codes' 15-bit
// limit; many make noise that no code shortens, so stored blocks).
import FuzzSupport
import PickerCore

let decoder = ImageDecoder(maxPixels: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 4 else { return 0 }
  let width = Int(data[0] & 127) + 1
  let height = Int(data[1] & 127) + 1
  let hasAlpha = data[2] & 1 != 0
  let levels = Int(data[3]) + 1
  let body = UnsafeBufferPointer(start: data + 4, count: size - 4)
  var rgba = [UInt8](repeating: 0, count: width * height * 4)
  for index in rgba.indices {
    let byte = body.isEmpty ? 0 : body[index % body.count]
    rgba[index] = index % 4 == 3 && !hasAlpha ? 255 : UInt8(Int(byte) % levels)
  }
  let image = PixelImage(width: width, height: height, rgba: rgba)
  let text = [(key: "Thumb::URI", value: "file:///fuzz.jpg"), (key: "Thumb::MTime", value: String(size))]
  guard let png = ImageEncoder.thumbnailPNG(image, text: text) else { preconditionFailure("encoding failed") }
  let decoded: PixelImage
  do {
    decoded = try decoder.decode(bytes: png, covering: PixelSize(width: width, height: height)).image
  } catch {
    preconditionFailure("its own PNG did not decode: \(error)")
  }
  precondition(decoded.width == width && decoded.height == height, "size changed")
  for y in 0..<height {
    for x in 0..<width {
      precondition(decoded.pixel(x: x, y: y) == image.pixel(x: x, y: y), "pixel \(x),\(y) changed")
    }
  }
  return 0
}

runLibFuzzer(fuzz)
