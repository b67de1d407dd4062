/// Photos side by side (`c`): the picked ones, two to four at a time, their
/// zoom and pan shared (the loupe's), one pane active for Space and x.
public struct CompareState: Hashable, Sendable {
  public var photos: [ComparedPhoto]
  /// The first of the photos shown (they page by four).
  public var first: Int
  /// The active pane, among those shown.
  public var active: Int
  /// Every pane's zoom and centre, reckoned on the active photo; nil at fit.
  public var loupe: Loupe?

  public init(photos: [ComparedPhoto], first: Int = 0, active: Int = 0) {
    self.photos = photos
    self.first = first
    self.active = active
  }

  /// At most this many side by side.
  public static let panesAtOnce = 4

  /// The photos on screen.
  public var shown: ArraySlice<ComparedPhoto> {
    photos[first..<min(photos.count, first + Self.panesAtOnce)]
  }

  public var activePhoto: ComparedPhoto? {
    let index = first + active
    return photos.indices.contains(index) ? photos[index] : nil
  }
}

/// A compared photo is a picked one; its picture is its original.
public typealias ComparedPhoto = PickedPhoto

extension PickedPhoto {
  /// The original: a local file, or the URL its source fetches.
  public var reference: ImageReference {
    switch output {
    case .local(let path): return .file(path)
    case .remote(let source, let url): return .remote(source: source, url: url)
    }
  }
}

/// Where the panes go: two side by side, or one above the other when the
/// screen is tall (in pixels, a cell being twice as tall as wide); three
/// or four in a 2x2 grid. Each pane is a picture and two caption lines.
public enum CompareLayout {
  public struct Pane: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The picture's rows: the pane less its caption.
    public var pictureHeight: Int { max(1, height - 2) }
  }

  public static func panes(count: Int, width: Int, height: Int) -> [Pane] {
    guard count > 1 else { return [Pane(x: 0, y: 0, width: width, height: height)] }
    let halfWidth = (width - 1) / 2, halfHeight = (height - 1) / 2
    if count == 2 {
      if width >= height * 2 {
        return [
          Pane(x: 0, y: 0, width: halfWidth, height: height),
          Pane(x: halfWidth + 1, y: 0, width: width - halfWidth - 1, height: height),
        ]
      }
      return [
        Pane(x: 0, y: 0, width: width, height: halfHeight),
        Pane(x: 0, y: halfHeight + 1, width: width, height: height - halfHeight - 1),
      ]
    }
    return (0..<min(count, 4)).map { index in
      let column = index % 2, row = index / 2
      return Pane(
        x: column == 0 ? 0 : halfWidth + 1, y: row == 0 ? 0 : halfHeight + 1,
        width: column == 0 ? halfWidth : width - halfWidth - 1,
        height: row == 0 ? halfHeight : height - halfHeight - 1)
    }
  }
}
