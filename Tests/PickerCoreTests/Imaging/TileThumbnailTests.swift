import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

extension AppState {
  /// The thumbnails the state wants and has not got, nil when none.
  var requestedThumbnails: [ImageRequest]? { thumbnailWishes.isEmpty ? nil : thumbnailWishes }
}

@Suite struct TileThumbnailTests {
  /// 120x40 shows 6 columns and 3 rows of 16x8 thumbnails.
  func loaded(_ count: Int, options: AppOptions = AppOptions()) -> (AppState, [Effect]) {
    var (state, effects) = Fixture.started(options: options)
    let after = state.answerLoad(from: effects, with: Fixture.photos(1...count), total: count)
    effects += after
    return (state, after)
  }

  func name(_ request: ImageRequest) -> String {
    guard case .file(let path) = request.key.reference else { return "?" }
    return String(decoding: path.lastComponent, as: UTF8.self)
  }

  @Test func screenFirstInReadingOrderThenTheScreenBelow() throws {
    let (state, _) = loaded(60)
    let requests = try #require(state.requestedThumbnails)
    #expect(requests.count == 36, "18 on screen, 18 prefetched")
    #expect(requests.prefix(3).map(name) == ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"])
    #expect(zip(requests, requests.dropFirst()).allSatisfy { $0.priority > $1.priority })
    #expect(requests[17].priority > AppState.visiblePriority - 100)
    #expect(requests[18].priority < AppState.visiblePriority - 100)
    #expect(
      requests[0].key.columns == 16 && requests[0].key.rows == 8 && requests[0].key.style == .symbols(.palette256))
  }

  @Test func resultsFillTilesAndStaleOnesAreDropped() throws {
    var (state, _) = loaded(60)
    let requests = try #require(state.requestedThumbnails)
    let cells = CellImage(
      columns: 1, rows: 1, colors: .rgb, glyphs: [CellGlyph(scalar: 0x2580, foreground: 0xFF0000, background: 0x0000FF)]
    )
    _ = state.update(.thumbnailLoaded(requests[0].key, .success(.cells(cells))))
    #expect(state.thumbnails[requests[0].key] == .ready(.cells(cells)))
    #expect(state.thumbnailWishes.count == 35, "what arrived is no longer asked for")
    _ = state.update(.thumbnailLoaded(requests[1].key, .failure(ImageDecodingError("corrupt JPEG"))))
    #expect(state.thumbnails[requests[1].key] == .failed("corrupt JPEG"))
    // A result for a photo no longer on or near the screen is dropped.
    let elsewhere = ImageRequest.Key(
      reference: .file(PathBytes("/p/other.jpg")), columns: 16, rows: 8, depth: .palette256)
    _ = state.update(.thumbnailLoaded(elsewhere, .success(.cells(cells))))
    #expect(state.thumbnails[elsewhere] == nil)
  }

  @Test func biggerTilesAskAgainAtTheNewSize() throws {
    var (state, _) = loaded(60)
    state.press(.char("+"))
    let requests = try #require(state.requestedThumbnails)
    #expect(requests.allSatisfy { $0.key.columns == state.layout.thumbnailWidth && $0.key.columns > 16 })
    #expect(state.thumbnails.keys.allSatisfy { $0.columns > 16 }, "old sizes are let go")
  }

  @Test func scrollingMovesTheWishList() throws {
    var (state, _) = loaded(60)
    state.press(.pageDown, .pageDown)
    let requests = try #require(state.requestedThumbnails)
    #expect(!requests.contains { name($0) == "IMG_1.jpg" })
    #expect(requests.contains { name($0) == "IMG_40.jpg" })
  }

  @Test func thumbnailsOffAsksForNothingAndShowsTheKind() {
    let (state, _) = loaded(10, options: AppOptions(showsThumbnails: false))
    #expect(state.requestedThumbnails == nil)
    let text = AppView.render(state, theme: .monochrome).plainText
    #expect(text.contains("JPG"))
    #expect(!text.contains("░"))
  }

  @Test func tilesShowCellsErrorsAndPlaceholders() throws {
    var (state, _) = loaded(3)
    let requests = try #require(state.requestedThumbnails)
    let cells = CellImage(
      columns: 2, rows: 1, colors: .rgb,
      glyphs: [
        CellGlyph(scalar: 0x2580, foreground: 0xFF0000, background: 0x0000FF),
        CellGlyph(scalar: 0x2584, foreground: 0x00FF00, background: -1),
      ])
    _ = state.update(.thumbnailLoaded(requests[0].key, .success(.cells(cells))))
    _ = state.update(.thumbnailLoaded(requests[1].key, .failure(ImageDecodingError("truncated JPEG"))))
    let screen = AppView.render(state, theme: .colored)
    let layout = state.layout
    // The first tile's picture area starts one cell inside its border.
    let origin = layout.origin(row: 0, column: 0, scrollRow: 0)
    let x = origin.x + 1 + (layout.thumbnailWidth - 2) / 2
    let y = origin.y + 1 + (layout.thumbnailHeight - 1) / 2
    #expect(screen[x, y].text == "▀")
    #expect(screen[x, y].style.foreground == .rgb(0xFF0000) && screen[x, y].style.background == .rgb(0x0000FF))
    #expect(screen[x + 1, y].text == "▄" && screen[x + 1, y].style.background == .default)
    #expect(screen.plainText.contains("✗"))
    #expect(screen.plainText.contains("truncated"))
    #expect(screen.plainText.contains("░"), "the third is still loading")
  }

  @Test func pixelThumbnailsArePlacedOverBlankCellsAndNeverUnderTheHelp() throws {
    var options = AppOptions()
    options.pixelFormat = PixelFormat(graphics: .kitty, cellSize: PixelSize(width: 8, height: 16))
    var (state, _) = loaded(60, options: options)
    let requests = try #require(state.requestedThumbnails)
    #expect(requests[0].key.style == .pixels(options.pixelFormat!))
    let picture = PixelThumbnail(
      graphics: .kitty, columns: 16, rows: 6, pixelSize: PixelSize(width: 128, height: 96), payload: [])
    _ = state.update(.thumbnailLoaded(requests[0].key, .success(.pixels(picture))))
    let screen = AppView.render(state, theme: .colored)
    // The first tile's picture area starts at (1, 3) and is 16x8: centred rows.
    #expect(screen.images == [ImagePlacement(x: 1, y: 4, image: picture)])
    for y in 4..<10 { #expect(screen.line(y).dropFirst().prefix(16).allSatisfy { $0 == " " }) }
    _ = state.update(.key(.char("?")))
    #expect(AppView.render(state, theme: .colored).images.isEmpty)
  }
}
