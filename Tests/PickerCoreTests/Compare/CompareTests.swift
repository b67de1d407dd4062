import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Compare: the picked photos side by side, their panes, the active one,
/// picks and drops, paging by four, and one zoom for every pane.
@Suite struct CompareTests {
  func picked(_ count: Int, size: TerminalSize = TerminalSize(width: 120, height: 40)) -> AppState {
    var (state, effects) = Fixture.started(size: size)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...6), total: 6)
    for _ in 0..<count { _ = state.press(.char(" "), .right) }
    return state
  }

  @Test func panesGoSideBySideOrOneAboveTheOtherAndFourInAGrid() {
    let wide = CompareLayout.panes(count: 2, width: 120, height: 39)
    #expect(wide.map(\.x) == [0, 60] && wide.allSatisfy { $0.height == 39 && $0.width <= 60 })
    let tall = CompareLayout.panes(count: 2, width: 60, height: 60)
    #expect(tall.map(\.y) == [0, 30] && tall.allSatisfy { $0.width == 60 })
    let four = CompareLayout.panes(count: 4, width: 120, height: 39)
    #expect(four.map { [$0.x, $0.y] } == [[0, 0], [60, 0], [0, 20], [60, 20]])
    #expect(CompareLayout.panes(count: 3, width: 120, height: 39).count == 3)
  }

  @Test func cNeedsTwoPicksThenShowsThemWithTheirPictures() throws {
    var one = picked(1)
    _ = one.press(.char("c"))
    #expect(one.isOnGrid && one.notice?.text.contains("Pick two") == true)
    var state = picked(3)
    let effects = state.press(.char("c"))
    let compare = try #require(state.compareState)
    #expect(compare.photos.map(\.key.itemID) == ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"])
    let requests = try #require(state.requestedThumbnails)
    #expect(
      Set(requests.map(\.key.reference)) == Set((1...3).map { ImageReference.file(PathBytes("/p/IMG_\($0).jpg")) }))
    #expect(effects.contains(.readFacts(.file(PathBytes("/p/IMG_2.jpg")))))
    let screen = AppView.render(state, theme: .colored).plainText
    #expect(screen.contains("▶ 1/3 ✓ IMG_1.jpg") && screen.contains("  2/3 ✓ IMG_2.jpg"))
    #expect(screen.contains("Compare 1–3 of 3"))
  }

  @Test func tabSpaceDropAndEnter() throws {
    var state = picked(3)
    _ = state.press(.char("c"), .tab)
    #expect(state.compareState?.active == 1)
    _ = state.press(.char(" "))
    #expect(!state.selection.contains(SelectionKey(sourceID: "files", itemID: "IMG_2.jpg")), "unpicked")
    _ = state.press(.char("x"))
    #expect(state.compareState?.photos.map(\.key.itemID) == ["IMG_1.jpg", "IMG_3.jpg"])
    #expect(state.compareState?.active == 1, "the next took its place")
    let effects = state.press(.enter)
    #expect(effects.outcome == .picked([PathBytes("/p/IMG_1.jpg"), PathBytes("/p/IMG_3.jpg")]))
  }

  @Test func moreThanFourPageByFour() {
    var state = picked(6)
    _ = state.press(.char("c"))
    #expect(state.compareState?.shown.count == 4)
    _ = state.press(.pageDown)
    #expect(state.compareState?.first == 4 && state.compareState?.shown.count == 2)
    #expect(AppView.render(state, theme: .colored).plainText.contains("Compare 5–6 of 6"))
    _ = state.press(.pageUp, .escape)
    #expect(state.isOnGrid)
  }

  @Test func oneZoomForEveryPaneReckonedOnTheActivePhoto() throws {
    var state = picked(2)
    _ = state.press(.char("c"))
    for n in 1...2 {
      var read = PhotoFacts(name: "IMG_\(n).jpg")
      read.pixelSize = PixelSize(width: 4000, height: 3000)
      _ = state.update(.factsLoaded(.file(PathBytes("/p/IMG_\(n).jpg")), read))
    }
    _ = state.press(.char("z"))
    #expect(state.compareState?.loupe?.scale == 1)
    _ = state.press(.right)
    let compare = try #require(state.compareState)
    let keys = zip(compare.shown, state.comparePanes(compare)).compactMap {
      state.compareKey(for: $0, in: $1, loupe: compare.loupe)
    }
    #expect(
      keys.count == 2 && keys.allSatisfy { $0.loupe == state.compareState?.loupe }
        && state.compareState!.loupe!.centerX > 0.5)
    #expect(AppView.render(state, theme: .colored).line(39).contains("· 100%"))
  }

  @Test func eachPaneSaysHowSharpItsPhotoIsAgainstTheSharpest() {
    var state = picked(2)
    let effects = state.press(.char("c"))
    #expect(effects.contains(.scoreSharpness(.file(PathBytes("/p/IMG_1.jpg")))))
    _ = state.update(.sharpnessScored(.file(PathBytes("/p/IMG_1.jpg")), 40))
    #expect(!AppView.render(state, theme: .colored).plainText.contains("sharpest"), "not before all are scored")
    _ = state.update(.sharpnessScored(.file(PathBytes("/p/IMG_2.jpg")), 80))
    let screen = AppView.render(state, theme: .colored).plainText
    #expect(screen.contains("sharpness 50") && screen.contains("★ sharpest"))
    #expect(!state.press(.tab).contains(.scoreSharpness(.file(PathBytes("/p/IMG_1.jpg")))), "scored once")
  }
}
