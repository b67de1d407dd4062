/// A thumbnail to make: which image, how many cells, drawn how.
public struct ImageRequest: Hashable, Sendable {
  /// What identifies the result: two requests with equal keys share one load
  /// and one cache entry. Priority is not part of it.
  public struct Key: Hashable, Sendable {
    public var reference: ImageReference
    public var columns: Int
    public var rows: Int
    public var style: ThumbnailStyle
    /// The preview zoomed in: the part of the photo to show, at what
    /// scale. nil: the whole photo fitted.
    public var loupe: Loupe?

    public init(reference: ImageReference, columns: Int, rows: Int, style: ThumbnailStyle, loupe: Loupe? = nil) {
      self.reference = reference
      self.columns = columns
      self.rows = rows
      self.style = style
      self.loupe = loupe
    }

    /// Symbols in these colours.
    public init(reference: ImageReference, columns: Int, rows: Int, depth: ColorDepth) {
      self.init(reference: reference, columns: columns, rows: rows, style: .symbols(depth))
    }

    /// The area in screen pixels, as the loupe's 100% counts them: the
    /// terminal's cells, or 8x16 a cell for block symbols (which are drawn
    /// from fewer pixels, `pixelBox`).
    public var screenPixelBox: PixelSize {
      switch style {
      case .symbols: return PixelSize(width: columns * 8, height: rows * 16)
      case .pixels: return pixelBox
      }
    }

    /// The pixels worth decoding for it.
    public var pixelBox: PixelSize {
      switch style {
      case .symbols: return CellRenderer.pixelBox(columns: columns, rows: rows)
      case .pixels(let format): return PixelRenderer.pixelBox(columns: columns, rows: rows, cellSize: format.cellSize)
      }
    }
  }

  public var key: Key
  /// Higher runs first: cells on screen before prefetched ones.
  public var priority: Int

  public init(key: Key, priority: Int = 0) {
    self.key = key
    self.priority = priority
  }

  public init(reference: ImageReference, columns: Int, rows: Int, depth: ColorDepth, priority: Int = 0) {
    self.init(key: Key(reference: reference, columns: columns, rows: rows, depth: depth), priority: priority)
  }
}

/// A finished thumbnail, or why there is none.
public typealias ThumbnailResult = Result<Thumbnail, ImageDecodingError>
