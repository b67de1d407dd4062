import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The loupe's arithmetic (scales, the part on screen, pans kept on the
/// photo) and its keys in the preview.
@Suite struct LoupeTests {
  let photo = PixelSize(width: 4000, height: 3000)
  let box = PixelSize(width: 960, height: 608)

  @Test func stepsGoFromFitThroughOneHundredPercentToTheMaximum() {
    let fit = Loupe.fitScale(image: photo, box: box)
    #expect(abs(fit - 0.2027) < 0.001)
    var scales: [Double] = []
    var loupe: Loupe? = nil
    for _ in 0..<12 {
      loupe = Loupe.zoomedIn(from: loupe, fit: fit)
      scales.append(loupe!.scale)
    }
    #expect(scales.contains(1), "100% is a stop on the way")
    #expect(scales.last == Loupe.maximumScale)
    // Out again: 100% on the way back, then fit (nil).
    var out: Loupe? = Loupe(scale: 2)
    var back: [Double] = []
    while let current = Loupe.zoomedOut(from: out, fit: fit) {
      back.append(current.scale)
      out = current
    }
    #expect(back.first.map { abs($0 - 2 / 2.0.squareRoot()) < 1e-9 } == true && back.contains(1))
    #expect(back.allSatisfy { $0 > fit })
    // A small photo is enlarged at fit: 100% is then a step down, to its own pixels.
    #expect(abs(Loupe.fitScale(image: PixelSize(width: 300, height: 200), box: box) - 3.04) < 0.001)
  }

  @Test func theViewAtOneHundredPercentIsTheBoxesWorthOfPixelsAroundTheCentre() {
    let (region, drawn) = Loupe(scale: 1).visibleRegion(image: photo, box: box)
    #expect(region == PixelRect(x: 1520, y: 1196, width: 960, height: 608))
    #expect(drawn == box)
    // 200%: half as many photo pixels, drawn twice as large.
    let (close, closeDrawn) = Loupe(scale: 2, centerX: 0, centerY: 0).visibleRegion(image: photo, box: box)
    #expect(close == PixelRect(x: 0, y: 0, width: 480, height: 304) && closeDrawn == box, "kept on the photo")
  }

  @Test func pansMoveAThirdOrAWholeViewAndStopAtTheEdges() {
    let centre = Loupe(scale: 1)
    let third = centre.panned(dx: 1.0 / 3, dy: 0, image: photo, box: box)
    #expect(third.visibleRegion(image: photo, box: box).region.x == 1520 + 320)
    let page = centre.panned(dx: 0, dy: 1, image: photo, box: box)
    #expect(page.visibleRegion(image: photo, box: box).region.y == 1196 + 608)
    var far = centre
    for _ in 0..<20 { far = far.panned(dx: 1, dy: -1, image: photo, box: box) }
    let edge = far.visibleRegion(image: photo, box: box).region
    #expect(edge.x == 4000 - 960 && edge.y == 0)
    // Along an axis the whole photo fits, it stays in the middle.
    let wide = PixelSize(width: 4000, height: 300)
    #expect(Loupe(scale: 1, centerY: 0.9).clamped(image: wide, box: box).centerY == 0.5)
  }

  @Test func aRegionLargerOnScreenShowsEachPhotoPixelAsABlock() {
    // 2x2: red, green / blue, white.
    let image = PixelImage(
      width: 2, height: 2, rgba: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
    let big = image.region(PixelRect(x: 0, y: 0, width: 2, height: 2), drawnAt: PixelSize(width: 4, height: 4))
    #expect(big.width == 4 && big.height == 4)
    #expect(big.pixel(x: 1, y: 1) == (255, 0, 0, 255) && big.pixel(x: 2, y: 1) == (0, 255, 0, 255))
    #expect(big.pixel(x: 1, y: 3) == (0, 0, 255, 255) && big.pixel(x: 3, y: 3) == (255, 255, 255, 255))
    let corner = image.region(PixelRect(x: 1, y: 1, width: 1, height: 1), drawnAt: PixelSize(width: 1, height: 1))
    #expect(corner.pixel(x: 0, y: 0) == (255, 255, 255, 255))
  }

  // MARK: - In the preview

  func previewing(size: PixelSize? = PixelSize(width: 4000, height: 3000)) -> AppState {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3), total: 3)
    _ = state.press(.char("v"))
    if let size {
      var read = PhotoFacts(name: "IMG_1.jpg")
      read.pixelSize = size
      _ = state.update(.factsLoaded(.file(PathBytes("/p/IMG_1.jpg")), read))
    }
    return state
  }

  @Test func keysZoomPanAndStepKeepingTheZoom() throws {
    var state = previewing()
    _ = state.press(.char("z"))
    #expect(state.previewLoupe == Loupe(scale: 1))
    let key = try #require(state.previewedItem.flatMap { state.previewKey(for: $0, loupe: state.previewLoupe) })
    #expect(key.loupe == Loupe(scale: 1) && key.columns == 120 - AppState.miniMapWidth - 1)
    #expect(AppView.render(state, theme: .colored).line(39).contains("1/3 · IMG_1.jpg · 100%"))
    // The hints say so.
    #expect(AppView.render(state, theme: .colored).line(39).contains("←→ pan · p n photo"))
    // Zoomed, → pans instead of stepping; n steps, the zoom kept.
    _ = state.press(.right)
    #expect(state.previewedItem?.id == "IMG_1.jpg" && state.previewLoupe!.centerX > 0.5)
    _ = state.press(.shiftDown)
    #expect(state.previewLoupe!.centerY > 0.5)
    _ = state.press(.char("n"))
    #expect(state.previewedItem?.id == "IMG_2.jpg" && state.previewLoupe?.scale == 1)
    var read = PhotoFacts(name: "IMG_2.jpg")
    read.pixelSize = PixelSize(width: 3000, height: 4000)
    _ = state.update(.factsLoaded(.file(PathBytes("/p/IMG_2.jpg")), read))
    _ = state.press(.char("+"))
    #expect(state.previewLoupe!.scale > 1)
    _ = state.press(.char("0"))
    #expect(state.previewLoupe == nil)
    // At fit, ← → step again.
    _ = state.press(.left)
    #expect(state.previewedItem?.id == "IMG_1.jpg")
    _ = state.press(.char("z"), .escape)
    #expect(state.isOnGrid)
    _ = state.press(.char("v"))
    #expect(state.isPreviewing && state.previewLoupe == nil, "leaving the preview forgets the zoom")
  }

  @Test func oneHundredPercentIsTheSmallPhotosOwnPixelsEvenWhenFitEnlargesIt() {
    var state = previewing(size: PixelSize(width: 320, height: 240))
    _ = state.press(.char("z"))
    #expect(state.previewLoupe?.scale == 1 && state.notice == nil)
    #expect(state.previewLoupe?.percent == "100%")
    _ = state.press(.char("z"))
    #expect(state.previewLoupe == nil)
    // + from the enlarged fit goes further in, never back to 141%.
    _ = state.press(.char("+"))
    #expect((state.previewLoupe?.scale ?? 0) > 2)
  }

  @Test func aZoomBeforeTheSizeIsKnownWaitsForIt() {
    var state = previewing(size: nil)
    _ = state.press(.char("+"))
    #expect(state.previewLoupe == nil)
    var read = PhotoFacts(name: "IMG_1.jpg")
    read.pixelSize = PixelSize(width: 4000, height: 3000)
    _ = state.update(.factsLoaded(.file(PathBytes("/p/IMG_1.jpg")), read))
    #expect(state.previewLoupe != nil)
  }

  @Test func theWheelZoomsADragPansAndTheMiniMapShowsWhere() {
    var state = previewing()
    _ = state.update(.mouse(MouseEvent(kind: .wheelUp, x: 60, y: 20)))
    _ = state.press(.char("z"))
    #expect(state.previewLoupe?.scale == 1)
    let before = state.previewLoupe!
    _ = state.update(.mouse(MouseEvent(kind: .click, x: 60, y: 20)))
    _ = state.update(.mouse(MouseEvent(kind: .drag, x: 50, y: 20)))
    #expect(state.previewLoupe!.centerX > before.centerX, "dragged left: the view moves right on the photo")
    let screen = AppView.render(state, theme: .colored)
    let left = 120 - AppState.miniMapWidth
    // The map's frame, and the part on screen filled in.
    #expect(screen.line(38).dropFirst(left).hasPrefix("└"))
    #expect((0..<39).contains { screen.line($0).dropFirst(left).contains("█") })
    _ = state.update(.mouse(MouseEvent(kind: .wheelDown, x: 60, y: 20)))
    #expect(state.previewLoupe!.scale < 1)
  }
}

extension AppState {
  /// The open preview's loupe (nil: at fit, or no preview).
  var previewLoupe: Loupe? { top(PreviewMode.self)?.loupe }
}
