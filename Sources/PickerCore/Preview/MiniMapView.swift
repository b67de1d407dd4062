/// The zoomed preview's mini-map, at the bottom right beside the picture:
/// the photo's outline, and the part on screen filled in.
enum MiniMapView {
  static func draw(_ state: AppState, loupe: Loupe, theme: Theme, into screen: inout Screen) {
    guard let size = state.previewedPhotoSize, size.width > 0, size.height > 0 else { return }
    let picture = state.previewPictureArea(zoomed: true)
    let left = picture.x + picture.width + 1
    let width = min(AppState.miniMapWidth, screen.width - left)
    guard width >= 4 else { return }
    // Cells are about twice as tall as wide.
    let inner = width - 2
    let innerHeight = max(
      1, min(picture.height - 2, Int((Double(inner) * Double(size.height) / Double(size.width) / 2).rounded())))
    let top = picture.y + picture.height - innerHeight - 2
    guard top >= picture.y else { return }
    screen.put("┌" + String(repeating: "─", count: inner) + "┐", x: left, y: top, style: theme.border)
    for row in 0..<innerHeight {
      screen.put("│", x: left, y: top + 1 + row, style: theme.border)
      screen.put("│", x: left + inner + 1, y: top + 1 + row, style: theme.border)
    }
    screen.put("└" + String(repeating: "─", count: inner) + "┘", x: left, y: top + innerHeight + 1, style: theme.border)
    let (region, _) = loupe.visibleRegion(image: size, box: state.previewBox(zoomed: true))
    let x0 = region.x * inner / size.width
    let x1 = max(x0 + 1, min(inner, (region.x + region.width) * inner / size.width))
    let y0 = region.y * innerHeight / size.height
    let y1 = max(y0 + 1, min(innerHeight, (region.y + region.height) * innerHeight / size.height))
    for row in y0..<y1 {
      screen.put(String(repeating: "█", count: x1 - x0), x: left + 1 + x0, y: top + 1 + row, style: theme.notice)
    }
  }
}
