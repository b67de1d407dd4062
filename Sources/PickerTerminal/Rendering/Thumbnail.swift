import Foundation

/// How a thumbnail is drawn: libchafa symbols in the terminal's colours, or
/// real pixels for a terminal graphics protocol.
public enum ThumbnailStyle: Hashable, Sendable {
  case symbols(ColorDepth)
  case pixels(PixelFormat)
}

/// What a pixel thumbnail is encoded for.
public struct PixelFormat: Hashable, Sendable {
  public var graphics: GraphicsProtocol
  /// One terminal cell in pixels: a tile of N cells gets N times that.
  public var cellSize: PixelSize
  /// Sixel colour registers.
  public var colorRegisters: Int
  /// The largest image the terminal draws whole (xterm crops sixel images
  /// past its maxGraphicSize, 1000x1000 by default).
  public var maxSize: PixelSize?
  /// kitty: the terminal reads pictures from files, so they are kept as
  /// raw pixels, not base64.
  public var kittyFiles = false

  public init(graphics: GraphicsProtocol, cellSize: PixelSize, colorRegisters: Int = 256, maxSize: PixelSize? = nil) {
    self.graphics = graphics
    self.cellSize = cellSize
    self.colorRegisters = colorRegisters
    self.maxSize = maxSize
  }
}

/// A finished thumbnail: cells to draw as text, or an encoded image.
public enum Thumbnail: Hashable, Sendable {
  case cells(CellImage)
  case pixels(PixelThumbnail)

  public var cells: CellImage? {
    if case .cells(let cells) = self { return cells }
    return nil
  }

  public var pixels: PixelThumbnail? {
    if case .pixels(let pixels) = self { return pixels }
    return nil
  }

  /// The bytes this holds, for the memory cache's budget.
  public var byteCost: Int {
    switch self {
    case .cells(let cells): return cells.byteCost
    case .pixels(let pixels): return pixels.payload.count + 128
    }
  }

  /// The cells it covers.
  public var columns: Int {
    switch self {
    case .cells(let cells): return cells.columns
    case .pixels(let pixels): return pixels.columns
    }
  }

  public var rows: Int {
    switch self {
    case .cells(let cells): return cells.rows
    case .pixels(let pixels): return pixels.rows
    }
  }
}

/// An image encoded for one graphics protocol, covering whole cells. Equal
/// only to itself: its `id` names its content for as long as the process
/// lives, so the terminal can keep it by that id and it is never hashed
/// byte by byte.
public final class PixelThumbnail: Hashable, Sendable, CustomStringConvertible {
  public let id: UInt64
  public let graphics: GraphicsProtocol
  /// The cells the image fills.
  public let columns: Int
  public let rows: Int
  /// The image's own size in pixels (padded to whole cells for kitty and
  /// sixel).
  public let pixelSize: PixelSize
  /// kitty: the pixels in base64 (or as they are, `payloadIsRaw`, for a
  /// terminal that reads them from a file); sixel: the whole DCS string;
  /// iTerm2: the whole OSC 1337 string. Positioning is the writer's.
  public let payload: [UInt8]
  public let payloadIsRaw: Bool
  /// kitty: what the data is (`f=24` or `f=32`).
  public let dataFormat: String
  /// kitty: where the picture starts inside its first cell, in pixels, so
  /// that it sits centred in the cells it covers.
  public let offset: PixelSize

  public init(
    graphics: GraphicsProtocol, columns: Int, rows: Int, pixelSize: PixelSize, payload: [UInt8],
    dataFormat: String = "f=32", offset: PixelSize = PixelSize(width: 0, height: 0), payloadIsRaw: Bool = false
  ) {
    self.id = Self.nextID()
    self.graphics = graphics
    self.columns = columns
    self.rows = rows
    self.pixelSize = pixelSize
    self.payload = payload
    self.payloadIsRaw = payloadIsRaw
    self.dataFormat = dataFormat
    self.offset = offset
  }

  public static func == (a: PixelThumbnail, b: PixelThumbnail) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
  public var description: String { "\(graphics.rawValue) image \(id) \(columns)x\(rows)" }

  private static let counter = IDCounter()
  private static func nextID() -> UInt64 { counter.next() }
}

/// Process-wide increasing numbers.
private final class IDCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var last: UInt64 = 0
  func next() -> UInt64 {
    lock.lock()
    defer { lock.unlock() }
    last += 1
    return last
  }
}
