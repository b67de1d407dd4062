import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Golden screens: whole frames as text, for states reached by keys.
@Suite struct ViewTests {
  private func smallState(options: AppOptions = AppOptions()) -> (AppState, [Effect]) {
    var (state, effects) = Fixture.started(
      sources: [Fixture.source("Files"), Fixture.source("Picked", capabilities: [])], options: options,
      size: TerminalSize(width: 48, height: 20))
    state.grid.sizeLevel = 0
    return (state, effects)
  }

  private func render(_ state: AppState) -> String {
    AppView.render(state, theme: .colored).plainText
  }

  @Test func rootWithFolderSelectionAndLoadMore() {
    var (state, effects) = smallState()
    let page = Page(items: [Fixture.folder("Album")] + Fixture.photos(1...6), hasMore: true, total: 30)
    _ = state.update(.pageLoaded(effects.loads[0], page))
    state.press(.right, .char(" "), .right, .right)
    expectGolden(render(state), named: "root-selection-loadmore")
  }

  @Test func folderWithBackAndFocusedTray() {
    var (state, effects) = smallState(options: AppOptions(limits: SelectionLimits(maximum: 3)))
    let page = Page(items: [Fixture.folder("Album")] + Fixture.photos(1...2), hasMore: false)
    _ = state.update(.pageLoaded(effects.loads[0], page))
    state.press(.right, .char(" "), .left)
    let open = state.press(.enter)
    _ = state.answerLoad(from: open, with: [Fixture.photo("beach.png", folder: "/p/Album")])
    state.press(.right, .char(" "), .char("t"))
    expectGolden(render(state), named: "folder-back-tray")
  }

  @Test func hostileNamesEscapedAndMissingMarked() {
    var (state, effects) = smallState()
    var missing = Fixture.photo("gone.jpg")
    missing.isMissing = true
    let page = Page(items: [Fixture.photo("\u{1B}]0;X\u{07}.jpg"), missing], hasMore: false)
    _ = state.update(.pageLoaded(effects.loads[0], page))
    let screen = render(state)
    #expect(!screen.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    expectGolden(screen, named: "hostile-missing")
  }

  @Test func unreadableFolder() {
    var (state, effects) = smallState()
    _ = state.update(.pageFailed(effects.loads[0], "cannot open /p: Permission denied"))
    expectGolden(render(state), named: "unreadable-folder")
  }

  @Test func helpOverlay() {
    var (state, _) = Fixture.started(size: TerminalSize(width: 80, height: 45))
    state.press(.char("?"))
    expectGolden(render(state), named: "help")
    // Shorter: it scrolls to what did not fit, and says so.
    var short = Fixture.started(size: TerminalSize(width: 80, height: 30)).0
    short.press(.char("?"))
    var text = render(short)
    #expect(text.contains("↓ more") && text.contains("↑ ↓ scroll"))
    #expect(!text.contains("sign-in form"))
    short.press(.pageDown, .pageDown)
    text = render(short)
    #expect((short.top(HelpMode.self) != nil))
    #expect(text.contains("sign-in form") && text.contains("the end"))
    short.press(.char("x"))
    #expect(short.isOnGrid)
  }

  @Test func searchPromptAndTooSmall() {
    var (state, effects) = smallState()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...2))
    state.press(.char("/"), .char("s"), .char("e"))
    #expect(render(state).hasSuffix("Search Files: se█"))
    state.size = TerminalSize(width: 20, height: 5)
    #expect(render(state).hasPrefix("Terminal too small"))
    #expect(render(state).contains("needs 24×9"))
  }

  @Test func loadMoreCountsWhatIsLeft() {
    var (state, effects) = smallState()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...48), total: 50, hasMore: true)
    // Scrolled to the end without moving onto Load-more (which loads it).
    state.scope!.focus = 47
    state.scrollToBottom()
    #expect(render(state).contains("Load 2"))
  }

  @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
    var screen = Screen(width: 6, height: 1)
    screen.put("写真", x: 0, y: 0, style: .plain)
    screen.put("a", x: 1, y: 0, style: .plain)  // the right half of 写
    #expect(screen.line(0) == " a真  ")
    screen.put("b", x: 2, y: 0, style: .plain)  // the left half of 真
    #expect(screen.line(0) == " ab   ")
    screen.put("写", x: 3, y: 0, style: .plain)
    screen.fill(x: 4, y: 0, width: 1, height: 1, style: .plain)
    #expect(screen.line(0) == " ab   ")
    #expect(screen.cells.allSatisfy { !$0.text.isEmpty })
  }

  @Test func monochromeThemeUsesNoColours() {
    var (state, effects) = smallState()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...2))
    state.press(.char(" "))
    let screen = AppView.render(state, theme: .monochrome)
    #expect(screen.cells.allSatisfy { $0.style.foreground == .default && $0.style.background == .default })
    #expect(screen.cells.contains { $0.style.attributes.contains(.reverse) })
  }
}

/// The facts panel breaks values at spaces, and the status line puts a
/// source's news before the one-time tmux hint.
@Suite struct FinishTests {
  @Test func factsBreakAtSpacesNotInsideWords() {
    #expect(
      PreviewView.wrapWords("2024-06-14 10:15:00 +02:00 (EXIF)", width: 20) == ["2024-06-14 10:15:00", "+02:00 (EXIF)"])
    #expect(
      PreviewView.wrapWords("/a/very/long/path/without/spaces", width: 10) == [
        "/a/very/", "long/path/", "without/", "spaces",
      ])
    #expect(PreviewView.wrapWords("IMG_20230910_163005_003.jpg", width: 25) == ["IMG_20230910_163005_", "003.jpg"])
    #expect(
      PreviewView.wrapWords("…/lib/Shared/Copies/p0010.jpg", width: 15) == ["…/lib/Shared/", "Copies/", "p0010.jpg"])
    #expect(PreviewView.wrapWords("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
  }

  @Test func indexingNewsGoesBeforeTheTmuxHint() {
    var (state, _) = Fixture.started()
    state.notice = Notice("pixel thumbnails: tmux set -g allow-passthrough on", isHint: true)
    state.sources[0].status = "Indexing 1,200 of ~5,000"
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("Indexing 1,200 of ~5,000"))
    state.notice = Notice("Nothing picked yet")
    #expect(!AppView.render(state, theme: .monochrome).plainText.contains("Indexing"))
  }
}
