import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct PreviewTests {
  func loaded(_ items: [PhotoItem], hasMore: Bool = false) -> AppState {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: items, total: hasMore ? nil : items.count, hasMore: hasMore)
    return state
  }

  @Test func vOpensThePreviewOfTheFocusedPhotoAndAsksForItsPicture() throws {
    var state = loaded(Fixture.photos(1...5))
    state.press(.char("v"))
    #expect(state.top(PreviewMode.self) == PreviewMode(showsFacts: false))
    #expect(state.previewedItem?.id == "IMG_1.jpg")
    let requests = try #require(state.requestedThumbnails)
    // The photo shown, then the next one; there is no previous.
    #expect(requests.count == 2)
    #expect(requests[0].key.columns == 120 && requests[0].key.rows == 39, "the whole screen but the status line")
    let screen = AppView.render(state, theme: .colored)
    #expect(screen.line(39).contains("1/5 · IMG_1.jpg"))
    #expect(screen.line(39).contains("Esc back"))
  }

  @Test func stepsSelectsAndGoesBackToTheGridOnTheLastPhotoShown() {
    var state = loaded([Fixture.photo("a.jpg"), Fixture.folder("Album"), Fixture.photo("b.jpg")])
    _ = state.press(.char("v"))
    _ = state.press(.right)
    #expect(state.previewedItem?.id == "b.jpg", "the folder is passed over")
    _ = state.press(.char(" "))
    #expect(state.selection.count == 1)
    #expect(AppView.render(state, theme: .colored).line(39).contains("✓ picked"))
    _ = state.press(.right)
    #expect(state.previewedItem?.id == "b.jpg", "nothing after the last")
    _ = state.press(.char("h"))
    #expect(state.previewedItem?.id == "a.jpg")
    _ = state.press(.char("l"))
    _ = state.press(.escape)
    #expect(state.isOnGrid)
    #expect(state.focusedItem?.id == "b.jpg")
  }

  @Test func qLeavesThePreviewAndCtrlCCancels() {
    var state = loaded(Fixture.photos(1...3))
    _ = state.press(.char("v"))
    #expect(!state.press(.char("q")).contains(.finish(.cancelled)) && state.isOnGrid)
    _ = state.press(.char("v"))
    #expect(state.press(.ctrl("c")) == [.finish(.cancelled)])
  }

  @Test func enterConfirmsAsInTheGrid() {
    var state = loaded(Fixture.photos(1...3))
    _ = state.press(.char("v"))
    _ = state.press(.right)
    #expect(state.press(.enter) == [.finish(.picked([PathBytes("/p/IMG_2.jpg")]))])
  }

  @Test func factsAreAskedForOnceAsThePreviewOpens() {
    var state = loaded(Fixture.photos(1...3))
    // Read at once (the loupe needs the size), shown when the panel opens.
    let effects = state.press(.char("v"))
    let reference = ImageReference.file(PathBytes("/p/IMG_1.jpg"))
    #expect(effects.contains(.readFacts(reference)))
    _ = state.press(.char("i"))
    #expect(state.previewArea.width == 120 - AppState.factsPanelWidth)
    var read = PhotoFacts(name: "")
    read.pixelSize = PixelSize(width: 4000, height: 3000)
    read.metadata.model = "Fujifilm X-T4"
    read.metadata.fNumber = 2.8
    _ = state.update(.factsLoaded(reference, read))
    let screen = AppView.render(state, theme: .colored).plainText
    #expect(screen.contains("IMG_1.jpg") && screen.contains("4000 × 3000 (12.0 MP)"))
    #expect(screen.contains("Fujifilm X-T4") && screen.contains("f/2.8"))
    #expect(!state.press(.char("i")).contains(.readFacts(reference)))
    #expect(!state.press(.char("i")).contains(.readFacts(reference)), "already read")
    // Back on the grid the facts go: a long session keeps only what shows.
    _ = state.press(.escape)
    #expect(state.isOnGrid && state.readings.facts.isEmpty)
    #expect(state.press(.char("v")).contains(.readFacts(reference)), "read again when shown again")
  }

  /// Stepping on keeps the facts of the photo on screen only; a read of
  /// one stepped past that comes back late is not kept, and the photo's
  /// facts are asked for again when it is shown again.
  @Test func factsAreKeptForThePhotoOnScreenOnly() {
    var state = loaded(Fixture.photos(1...3))
    let first = ImageReference.file(PathBytes("/p/IMG_1.jpg"))
    let second = ImageReference.file(PathBytes("/p/IMG_2.jpg"))
    _ = state.press(.char("v"))
    #expect(state.readings.pending == [first])
    #expect(state.press(.right).contains(.readFacts(second)))
    #expect(state.readings.pending == [second], "the first photo's read is no longer awaited")
    _ = state.update(.factsLoaded(first, PhotoFacts(name: "")))
    #expect(state.readings.facts[first] == nil, "a late read of a photo stepped past is dropped")
    var read = PhotoFacts(name: "")
    read.metadata.model = "Fujifilm X-T4"
    _ = state.update(.factsLoaded(second, read))
    #expect(state.readings.facts[second]?.metadata.model == "Fujifilm X-T4")
    #expect(state.readings.facts[second]?.name == "IMG_2.jpg", "the listing's name stays")
    #expect(state.press(.left).contains(.readFacts(first)), "read again when shown again")
    #expect(state.readings.facts.keys.sorted { "\($0)" < "\($1)" } == [first])
  }

  @Test func pastTheLastLoadedPhotoTheNextPageLoads() {
    var state = loaded(Fixture.photos(1...2), hasMore: true)
    _ = state.press(.char("v"))
    _ = state.press(.right)
    let effects = state.press(.right)
    #expect(!effects.loads.isEmpty || state.scope?.prefetched == nil)
    #expect(AppView.render(state, theme: .colored).plainText.contains("Loading…"))
  }
}

@Suite struct TypeAheadTests {
  @Test func keysTypedBeforeTheFirstPageAreAppliedInOrder() {
    var (state, effects) = Fixture.started()
    _ = state.press(.right, .right, .char(" "))
    #expect(state.selection.isEmpty)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5), total: 5)
    #expect(state.selection.count == 1)
    #expect(state.focusedItem?.id == "IMG_3.jpg")
  }

  @Test func enterTypedAheadConfirmsOnceThePageIsThere() {
    var (state, effects) = Fixture.started()
    _ = state.press(.right, .enter)
    let after = state.answerLoad(from: effects, with: Fixture.photos(1...5), total: 5)
    let check = after.compactMap { if case .checkPicked(let check) = $0 { check } else { nil } }
    #expect(check.map(\.localPaths) == [[PathBytes("/p/IMG_2.jpg")]])
    #expect(state.update(.pickedChecked(check[0], missing: [])) == [.finish(.picked([PathBytes("/p/IMG_2.jpg")]))])
  }

  @Test func keysTypedForAScopeLeftSinceAreDropped() {
    var (state, effects) = Fixture.started(sources: [Fixture.source("A"), Fixture.source("B")])
    _ = state.press(.enter)
    // A click on B's tab ("[1 ▤ A] [2 ▤ B]"), then B's first page comes.
    _ = state.update(.mouse(MouseEvent(kind: .click, x: 10, y: 0)))
    #expect(state.grid.activeSource == 1)
    let after = state.answerLoad(from: effects, with: Fixture.photos(1...3), total: 3)
    #expect(!after.contains { if case .finish = $0 { return true } else { return false } })
  }

  @Test func cancellingNeverWaits() {
    var (state, _) = Fixture.started()
    #expect(state.press(.escape) == [.finish(.cancelled)])
  }
}

@Suite struct RemotePreviewFactsTests {
  @Test func aRemotePhotosFactsComeFromItsListing() throws {
    var (state, effects) = Fixture.started()
    var photo = PhotoItem(
      id: "42", kind: .photo, title: Array("Beach".utf8), thumbnail: .remote(source: "s", url: "http://x/t/42"),
      original: .remote(source: "s", url: "http://x/o/42"))
    photo.listedSize = PixelSize(width: 4000, height: 3000)
    photo.listedDate = "2024-07-01T18:30:00Z"
    _ = state.answerLoad(from: effects, with: [photo], total: 1)
    state.press(.char("v"))
    let requests = try #require(state.requestedThumbnails)
    // The preview asks for the original, through its source.
    #expect(requests.first?.key.reference == .remote(source: "s", url: "http://x/o/42"))
    let opened = state.press(.char("i"))
    #expect(!opened.contains { if case .readFacts = $0 { return true } else { return false } })
    let screen = AppView.render(state, theme: .colored).plainText
    #expect(
      screen.contains("4000 × 3000") && screen.contains("2024-07-01T18:30:00Z") && screen.contains("remote photo"))
  }
}

@Suite struct PreviewProgressTests {
  @Test func aLargeOriginalShowsItsBytesAndABarUntilItArrives() throws {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...2), total: 2)
    state.press(.char("v"))
    let key = try #require(state.requestedThumbnails?.first?.key)
    _ = state.update(.thumbnailProgress(key, received: 2 << 20, expected: 8 << 20))
    var screen = AppView.render(state, theme: .colored).plainText
    #expect(screen.contains("2.0 MB of 8.0 MB") && screen.contains("██████████░"))
    let cells = CellImage(
      columns: 1, rows: 1, colors: .rgb, glyphs: [CellGlyph(scalar: 0x2580, foreground: 1, background: 2)])
    _ = state.update(.thumbnailLoaded(key, .success(.cells(cells))))
    screen = AppView.render(state, theme: .colored).plainText
    #expect(!screen.contains("MB of") && state.fetchProgress.isEmpty)
  }
}
