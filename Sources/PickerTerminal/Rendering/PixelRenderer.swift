import CImaging
import Foundation

/// Encodes decoded pixels for a terminal graphics protocol, sized to whole
/// cells of the terminal's cell size and centred in them.
public enum PixelRenderer {
  /// The cells an image of `width` x `height` pixels fills when fitted (and
  /// never enlarged) into `maxColumns` x `maxRows` cells.
  public static func footprint(
    width: Int, height: Int, maxColumns: Int, maxRows: Int, cellSize: PixelSize
  ) -> (columns: Int, rows: Int, fitted: PixelSize) {
    let box = PixelSize(width: maxColumns * cellSize.width, height: maxRows * cellSize.height)
    var fitted = PixelSize(width: width, height: height)
    if width > box.width || height > box.height {
      if width * box.height >= height * box.width {
        fitted = PixelSize(width: box.width, height: max(1, (height * box.width + width / 2) / width))
      } else {
        fitted = PixelSize(width: max(1, (width * box.height + height / 2) / height), height: box.height)
      }
    }
    let columns = min(maxColumns, max(1, (fitted.width + cellSize.width - 1) / cellSize.width))
    let rows = min(maxRows, max(1, (fitted.height + cellSize.height - 1) / cellSize.height))
    return (columns, rows, fitted)
  }

  /// The pixel box a thumbnail of this many cells is decoded for.
  public static func pixelBox(columns: Int, rows: Int, cellSize: PixelSize) -> PixelSize {
    PixelSize(width: columns * cellSize.width, height: rows * cellSize.height)
  }

  public static func render(_ image: PixelImage, maxColumns: Int, maxRows: Int, format: PixelFormat)
    -> PixelThumbnail?
  {
    let cell = format.cellSize
    guard cell.width > 0, cell.height > 0, maxColumns > 0, maxRows > 0 else { return nil }
    // A terminal that crops large images gets fewer cells' worth.
    var maxColumns = maxColumns
    var maxRows = maxRows
    if let limit = format.maxSize, limit.width >= cell.width, limit.height >= cell.height {
      maxColumns = min(maxColumns, limit.width / cell.width)
      maxRows = min(maxRows, limit.height / cell.height)
    }
    let (columns, rows, fitted) = footprint(
      width: image.width, height: image.height, maxColumns: maxColumns, maxRows: maxRows, cellSize: cell)
    let shown = image.fitted(maxWidth: fitted.width, maxHeight: fitted.height)
    switch format.graphics {
    case .kitty:
      // Sent as it is and placed with a pixel offset: no padding to send.
      guard let (payload, dataFormat) = KittyEncoding.payload(shown, base64: !format.kittyFiles) else { return nil }
      let offset = PixelSize(
        width: (columns * cell.width - shown.width) / 2, height: (rows * cell.height - shown.height) / 2)
      return PixelThumbnail(
        graphics: .kitty, columns: columns, rows: rows, pixelSize: PixelSize(width: shown.width, height: shown.height),
        payload: payload, dataFormat: dataFormat, offset: offset, payloadIsRaw: format.kittyFiles)
    case .sixel:
      guard let padded = shown.padded(width: columns * cell.width, height: rows * cell.height) else { return nil }
      var buffer: UnsafeMutablePointer<UInt8>?
      var size = 0
      let status = pk_encode_sixel(
        &padded.raw, Int32(columns), Int32(rows), Int32(cell.width), Int32(cell.height),
        Int32(format.colorRegisters), &buffer, &size)
      guard status == 0, let buffer else { return nil }
      defer { pk_buffer_free(buffer) }
      return PixelThumbnail(
        graphics: .sixel, columns: columns, rows: rows,
        pixelSize: PixelSize(width: padded.width, height: padded.height),
        payload: Array(UnsafeBufferPointer(start: buffer, count: size)))
    case .iterm2:
      guard let jpeg = ImageEncoder.encode(shown, as: .jpeg(quality: 85)) else { return nil }
      return PixelThumbnail(
        graphics: .iterm2, columns: columns, rows: rows, pixelSize: PixelSize(width: shown.width, height: shown.height),
        payload: ITerm2Encoding.inlineImage(jpeg, columns: columns, rows: rows))
    }
  }
}

/// kitty's graphics protocol: the transmitted data, and the commands.
public enum KittyEncoding {
  /// The pixels in base64 (or as they are), and the format keys that
  /// describe them.
  public static func payload(_ image: PixelImage, base64: Bool = true) -> (payload: [UInt8], dataFormat: String)? {
    var buffer: UnsafeMutablePointer<UInt8>?
    var size = 0
    var bits: Int32 = 0
    // Uncompressed: zlib took 15x the time to save 14% of the bytes of
    // camera photos (their noise does not compress), measured with
    // `bench pixels`.
    guard pk_kitty_pixels(&image.raw, &buffer, &size, &bits) == 0, let buffer else { return nil }
    defer { pk_buffer_free(buffer) }
    let pixels = UnsafeBufferPointer(start: buffer, count: size)
    return (base64 ? Array(Data(buffer: pixels).base64EncodedData()) : Array(pixels), "f=\(bits)")
  }

  /// Transmits a thumbnail's data under `id` (chunks of at most 4096 bytes,
  /// `q=2`: the terminal answers nothing). With `virtualPlacement`, also
  /// creates the placement that Unicode placeholder cells show.
  public static func transmit(_ image: PixelThumbnail, id: UInt32, virtualPlacement: Bool = false) -> [UInt8] {
    let chunk = 4096
    let payload = image.payloadIsRaw ? Array(Data(image.payload).base64EncodedData()) : image.payload
    var out: [UInt8] = []
    out.reserveCapacity(payload.count + payload.count / chunk * 8 + 96)
    var offset = 0
    repeat {
      let end = min(payload.count, offset + chunk)
      let more = end < payload.count ? 1 : 0
      var control = "m=\(more)"
      if offset == 0 {
        control =
          "a=t,i=\(id),\(image.dataFormat),s=\(image.pixelSize.width),v=\(image.pixelSize.height),q=2,m=\(more)"
      } else {
        control += ",q=2"
      }
      out += Array("\u{1B}_G\(control);".utf8)
      out += payload[offset..<end]
      out += [0x1B, UInt8(ascii: "\\")]
      offset = end
    } while offset < payload.count
    if virtualPlacement {
      out += Array("\u{1B}_Ga=p,U=1,i=\(id),c=\(image.columns),r=\(image.rows),q=2\u{1B}\\".utf8)
    }
    return out
  }

  /// Transmits a thumbnail's raw pixels from a temporary file under `id`
  /// (kitty reads the file, then deletes it).
  public static func transmit(_ image: PixelThumbnail, id: UInt32, file: String) -> [UInt8] {
    let name = Data(file.utf8).base64EncodedString()
    let size = "s=\(image.pixelSize.width),v=\(image.pixelSize.height)"
    return Array("\u{1B}_Ga=t,i=\(id),\(image.dataFormat),\(size),t=t,q=2;\(name)\u{1B}\\".utf8)
  }

  /// Sends and shows an image at the cursor in one go, with no id to keep
  /// (a one-off picture, as a preview pane prints it).
  public static func display(_ image: PixelThumbnail) -> [UInt8] {
    var out = transmit(image, id: 0)
    // `a=T` transmits and displays; id 0 leaves the id to the terminal.
    let header = "\u{1B}_Ga=t,i=0,"
    if let range = out.firstRange(of: Array(header.utf8)) {
      out.replaceSubrange(range, with: Array("\u{1B}_Ga=T,".utf8))
    }
    return out
  }

  /// Shows image `id` at the cursor over its cells without moving the
  /// cursor; placing the same placement again moves it.
  public static func place(_ image: PixelThumbnail, id: UInt32, placement: UInt32) -> [UInt8] {
    Array("\u{1B}_Ga=p,i=\(id),p=\(placement),X=\(image.offset.width),Y=\(image.offset.height),C=1,q=2\u{1B}\\".utf8)
  }

  /// Removes a placement, keeping the data for later.
  public static func removePlacement(id: UInt32, placement: UInt32) -> [UInt8] {
    Array("\u{1B}_Ga=d,d=i,i=\(id),p=\(placement),q=2\u{1B}\\".utf8)
  }

  /// An empty last chunk: ends a load cut short (kitty drops the image).
  public static let endLoad = Array("\u{1B}_Gm=0,q=2;\u{1B}\\".utf8)

  /// Frees an image and its placements (our own id only, never "all").
  public static func delete(id: UInt32) -> [UInt8] {
    Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
  }
}

/// iTerm2's inline images (OSC 1337), also drawn by WezTerm and mlterm.
public enum ITerm2Encoding {
  public static func inlineImage(_ file: [UInt8], columns: Int, rows: Int) -> [UInt8] {
    let header =
      "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=1:"
    return Array(header.utf8) + Array(Data(file).base64EncodedData()) + [0x07]
  }
}

extension PixelImage {
  /// This image centred on a transparent canvas of the given size.
  func padded(width: Int, height: Int) -> PixelImage? {
    if width == self.width && height == self.height { return self }
    var out = pk_image()
    guard pk_image_pad(&raw, Int32(width), Int32(height), &out) == 0 else { return nil }
    return PixelImage(taking: out)
  }
}
