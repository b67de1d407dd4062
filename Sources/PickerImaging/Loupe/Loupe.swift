/// The preview zoomed in: how much, and on which point of the photo. The
/// preview at fit has none.
public struct Loupe: Hashable, Sendable {
  /// Screen pixels per photo pixel: 1 is 100%, one photo pixel per screen
  /// pixel (a cell of block symbols counts as 8x16 pixels).
  public var scale: Double
  /// The point of the upright photo at the middle of the view, each way
  /// from 0 (left, top) to 1 (right, bottom).
  public var centerX: Double
  public var centerY: Double

  public init(scale: Double, centerX: Double = 0.5, centerY: Double = 0.5) {
    self.scale = scale
    self.centerX = centerX
    self.centerY = centerY
  }

  /// The most the loupe magnifies: 800%, a photo pixel a cell wide.
  public static let maximumScale = 8.0
  /// One zoom step: two steps double the size.
  static let step = 2.0.squareRoot()

  /// The scale that shows a whole photo of `image` pixels in `box`: what
  /// the preview draws at fit, a small photo enlarged (above 100%).
  public static func fitScale(image: PixelSize, box: PixelSize) -> Double {
    guard image.width > 0, image.height > 0 else { return 1 }
    return min(Double(box.width) / Double(image.width), Double(box.height) / Double(image.height))
  }

  /// One step in from `current` (nil: fit), stopping at 100% on the way
  /// and at the maximum.
  public static func zoomedIn(from current: Loupe?, fit: Double) -> Loupe {
    var loupe = current ?? Loupe(scale: fit)
    let next = loupe.scale * step
    loupe.scale = loupe.scale < 1 && next > 1 ? 1 : min(maximumScale, next)
    return loupe
  }

  /// One step out; nil once it reaches fit.
  public static func zoomedOut(from current: Loupe?, fit: Double) -> Loupe? {
    guard var loupe = current else { return nil }
    let next = loupe.scale / step
    if next <= fit * 1.001 { return nil }
    loupe.scale = loupe.scale > 1 && next < 1 ? 1 : next
    return loupe
  }

  /// Moved by a fraction of the view (`dx` 1: a whole view to the right),
  /// kept so that the view stays on the photo.
  public func panned(dx: Double, dy: Double, image: PixelSize, box: PixelSize) -> Loupe {
    var moved = self
    moved.centerX += dx * Double(box.width) / scale / Double(max(1, image.width))
    moved.centerY += dy * Double(box.height) / scale / Double(max(1, image.height))
    return moved.clamped(image: image, box: box)
  }

  /// The centre moved so the view does not run off the photo (along an
  /// axis where the whole photo fits, it stays in the middle).
  public func clamped(image: PixelSize, box: PixelSize) -> Loupe {
    var loupe = self
    func clamp(_ center: Double, view: Int, length: Int) -> Double {
      let half = Double(view) / scale / Double(max(1, length)) / 2
      return half >= 0.5 ? 0.5 : min(1 - half, max(half, center))
    }
    loupe.centerX = clamp(centerX, view: box.width, length: image.width)
    loupe.centerY = clamp(centerY, view: box.height, length: image.height)
    return loupe
  }

  /// The part of the photo on screen, in photo pixels, and the size it is
  /// drawn at (never more than the box).
  public func visibleRegion(image: PixelSize, box: PixelSize) -> (region: PixelRect, drawn: PixelSize) {
    let loupe = clamped(image: image, box: box)
    let width = min(image.width, max(1, Int((Double(box.width) / scale).rounded())))
    let height = min(image.height, max(1, Int((Double(box.height) / scale).rounded())))
    let x = min(image.width - width, max(0, Int((loupe.centerX * Double(image.width)).rounded()) - width / 2))
    let y = min(image.height - height, max(0, Int((loupe.centerY * Double(image.height)).rounded()) - height / 2))
    let drawn = PixelSize(
      width: min(box.width, max(1, Int((Double(width) * scale).rounded()))),
      height: min(box.height, max(1, Int((Double(height) * scale).rounded()))))
    return (PixelRect(x: x, y: y, width: width, height: height), drawn)
  }

  /// One zoom step from `current` (nil: fit) for a photo of `size` pixels:
  /// fit is reckoned in `fitBox`, the view kept on the photo in `box`. The
  /// preview and compare both zoom through it; the notice says why 100%
  /// changed nothing.
  package static func zoomed(
    _ step: ZoomStep, from current: Loupe?, photo size: PixelSize, fitBox: PixelSize, box: PixelSize
  ) -> (loupe: Loupe?, notice: Notice?) {
    let fit = fitScale(image: size, box: fitBox)
    switch step {
    case .in:
      return (zoomedIn(from: current, fit: fit).clamped(image: size, box: box), nil)
    case .out:
      return (zoomedOut(from: current, fit: fit)?.clamped(image: size, box: box), nil)
    case .actualSize:
      // 100% is the photo's own pixels, smaller than fit for a photo the
      // fit enlarges.
      if abs(fit - 1) < 0.001 {
        return (nil, Notice("Shown at 100% already: the photo fits the screen at its own size"))
      }
      if current?.scale == 1 { return (nil, nil) }
      let loupe = Loupe(scale: 1, centerX: current?.centerX ?? 0.5, centerY: current?.centerY ?? 0.5)
      return (loupe.clamped(image: size, box: box), nil)
    case .fit:
      return (nil, nil)
    }
  }

  /// "100%", "141%": what the status line says.
  public var percent: String { "\(Int((scale * 100).rounded()))%" }
}

/// A screen cell the pointer was on.
package struct LoupeDragPoint: Hashable, Sendable {
  package var x: Int
  package var y: Int

  package init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}

/// The loupe's zoom keys, wherever they are pressed.
package enum ZoomStep: Hashable, Sendable {
  case `in`, out, actualSize, fit
}
