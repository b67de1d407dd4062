import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Sign-in, sign-out and downloads, as the state sees them.
@Suite struct SignInAndDownloadTests {
  static let prompt = AuthPrompt(
    title: "Sign in to Stock",
    fields: [AuthField(name: "user", label: "User"), AuthField(name: "password", label: "Password", isSecret: true)])

  static func remotePhoto(_ name: String) -> PhotoItem {
    PhotoItem(
      id: name, kind: .photo, title: Array(name.utf8),
      thumbnail: .remote(source: "web:Stock", url: "http://s/t/\(name)"),
      original: .remote(source: "web:Stock", url: "http://s/o/\(name).png"))
  }

  /// Files (local) and Stock (remote, with sign-in), Stock on screen and
  /// asking for its form.
  static func signInAsked() -> AppState {
    let stock = Fixture.source("Stock", id: "web:Stock", capabilities: [.paging, .search, .albums, .auth])
    var (state, effects) = Fixture.started(sources: [Fixture.source(), stock])
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.tab)
    let load = effects.loads.first { $0.sourceIndex == 1 }!
    _ = state.update(.pageNeedsSignIn(load, "sign in to Stock to see its photos", prompt))
    return state
  }

  @Test func aSourceThatNeedsSignInOpensTheFormWhenShown() throws {
    let state = Self.signInAsked()
    guard let form = state.top(SignInMode.self)?.form else {
      Issue.record("no form: \(String(describing: state.topMode))")
      return
    }
    #expect(form.sourceIndex == 1)
    #expect(SourceBarView.labels(state) == ["[1 ▤ Files]", "[2 ▤ Stock*]"])
  }

  @Test func theFormIsNotForcedOverAnotherSource() {
    let stock = Fixture.source("Stock", id: "web:Stock", capabilities: [.auth])
    var (state, effects) = Fixture.started(sources: [Fixture.source(), stock])
    let load = effects.loads.first { $0.sourceIndex == 1 }!
    _ = state.update(.pageNeedsSignIn(load, "sign in", Self.prompt))
    #expect(state.isOnGrid)
    state.press(.char("2"))
    guard state.top(SignInMode.self) != nil else {
      Issue.record("switching to the source should open its form")
      return
    }
  }

  /// The tray leaves the grid in view: the form opens over it. Help does
  /// not give way; the form waits for the source to be shown again.
  @Test func theFormOpensOverTheTrayButNotOverHelp() {
    for (key, opens) in [(Key.char("t"), true), (Key.char("?"), false)] {
      let stock = Fixture.source("Stock", id: "web:Stock", capabilities: [.auth])
      var (state, effects) = Fixture.started(sources: [stock])
      _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
      state.press(.char(" "), key)
      #expect(!state.isOnGrid, "\(key) opened nothing")
      let load = effects.loads.first { $0.sourceIndex == 0 }!
      _ = state.update(.pageNeedsSignIn(load, "sign in", Self.prompt))
      #expect((state.top(SignInMode.self) != nil) == opens, "over \(key): \(String(describing: state.topMode))")
    }
  }

  /// A command source that tells what it can do once it runs keeps its
  /// mark and its status line.
  @Test func aSourceDescribingItselfAgainKeepsItsMark() {
    var state = Self.signInAsked()
    state.sources[1].status = "Indexing 1,200 of ~5,000"
    var described = Fixture.source("Stock", id: "web:Stock", capabilities: [.paging, .auth])
    described.title = "Stock photos"
    _ = state.update(.sourceUpdated(sourceIndex: 1, described))
    #expect(SourceBarView.labels(state) == ["[1 ▤ Files]", "[2 ▤ Stock photos*]"])
    #expect(state.sources[1].status == "Indexing 1,200 of ~5,000")
    #expect(state.sources[1].capabilities == [.paging, .auth])
  }

  @Test func typingFillsFieldsAndEnterSubmitsOnTheLast() {
    var state = Self.signInAsked()
    state.press(.char("m"), .char("e"), .enter, .char("p"), .char("w"), .backspace, .char("x"))
    guard let form = state.top(SignInMode.self)?.form else {
      Issue.record("form closed")
      return
    }
    #expect(form.values == ["me", "px"])
    #expect(form.shown(1) == "••")
    let effects = state.press(.enter)
    // The sign-in is the form's task; the secret is not part of what it says.
    let attempt = effects.modeTasks.first?.task.what.base.base as? SignInMode.Attempt
    #expect(attempt == SignInMode.Attempt(sourceIndex: 1, fields: ["password", "user"]))
    // The secret never reaches the screen.
    let text = AppView.render(state, theme: .monochrome).plainText
    #expect(!text.contains("px"))
    #expect(text.contains("Signing in…"))
  }

  @Test func aRefusalShowsTheErrorAndEmptiesSecrets() {
    var state = Self.signInAsked()
    state.press(.char("u"), .enter, .char("p"), .enter)
    _ = state.update(state.messageToTop(SignInMode.Message.finished(error: "wrong user or password")))
    guard let form = state.top(SignInMode.self)?.form else {
      Issue.record("form closed")
      return
    }
    #expect(form.values == ["u", ""])
    #expect(form.focus == 1)
    #expect(!form.isSubmitting)
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("⚠ wrong user or password"))
  }

  @Test func signingInClosesTheFormAndLoadsWhatFailed() {
    var state = Self.signInAsked()
    let effects = state.update(state.messageToTop(SignInMode.Message.finished(error: nil)))
    #expect(state.isOnGrid)
    #expect(state.sources[1].signInNeeded == nil)
    #expect(effects.loads.count == 1)
    #expect(effects.loads.first?.sourceIndex == 1)
    #expect(state.notice?.text == "Signed in to Stock")
  }

  @Test func escapeLeavesTheFormAndLoadMoreReopensIt() {
    var state = Self.signInAsked()
    state.press(.escape)
    #expect(state.isOnGrid)
    // The failed root offers its Retry cell.
    state.press(.enter)
    guard state.top(SignInMode.self) != nil else {
      Issue.record("Retry on a source that needs sign-in should open the form")
      return
    }
  }

  @Test func aSignInNeededMidSessionKeepsTheSelection() {
    let stock = Fixture.source("Stock", id: "web:Stock", capabilities: [.paging, .albums, .auth])
    var (state, effects) = Fixture.started(sources: [stock])
    _ = state.answerLoad(from: effects, with: [Fixture.folder("Album"), Self.remotePhoto("Beach")])
    state.press(.right, .char(" "))
    #expect(state.selection.count == 1)
    state.press(.left)
    let open = state.update(.key(.enter))
    _ = state.update(.pageNeedsSignIn(open.loads[0], "Stock asks to sign in again", Self.prompt))
    guard state.top(SignInMode.self) != nil else {
      Issue.record("a 401 should bring the form back")
      return
    }
    #expect(state.selection.count == 1)
  }

  @Test func signOutDropsPagesAndAsksTheRunner() {
    let stock = Fixture.source("Stock", id: "web:Stock", capabilities: [.paging, .auth])
    var (state, effects) = Fixture.started(sources: [stock])
    _ = state.answerLoad(from: effects, with: [Self.remotePhoto("Beach")])
    let out = state.update(.key(.char("O")))
    #expect(out.contains(.signOut(sourceIndex: 0)))
    #expect(state.scope?.items.isEmpty == true)
    let reload = state.update(.signedOut(sourceIndex: 0))
    #expect(reload.loads.count == 1)
  }

  @Test func signOutIsRefusedWhereThereIsNoSignIn() {
    var (state, _) = Fixture.started()
    #expect(state.update(.key(.char("O"))).isEmpty)
    #expect(state.notice?.text == "Files has no sign-in")
  }

  // MARK: Downloads

  /// Local IMG_1 picked, then remote Beach.
  static func mixedSelection(options: AppOptions = AppOptions()) -> AppState {
    let stock = Fixture.source("Stock", id: "web:Stock", capabilities: [.paging])
    var (state, effects) = Fixture.started(sources: [Fixture.source(), stock], options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...2))
    state.press(.char(" "))
    state.press(.tab)
    let load = effects.loads.first { $0.sourceIndex == 1 }!
    _ = state.update(.pageLoaded(load, Page(items: [remotePhoto("Beach")], hasMore: false)))
    state.press(.char(" "))
    return state
  }

  @Test func confirmingRemotePicksDownloadsThemInSelectionOrder() throws {
    var state = Self.mixedSelection()
    let effects = state.press(.enter)
    let (_, plan) = try #require(effects.download)
    #expect(
      plan.outputs == [.local(PathBytes("/p/IMG_1.jpg")), .remote(source: "web:Stock", url: "http://s/o/Beach.png")])
    #expect(plan.titles == [Array("IMG_1.jpg".utf8), Array("Beach".utf8)])
    guard let progress = state.top(DownloadMode.self)?.progress else {
      Issue.record("not downloading")
      return
    }
    #expect(progress.files == 1)
    var half = progress
    half.received = 50
    half.expected = 100
    _ = state.update(state.messageToTop(DownloadMode.Message.progress(half)))
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("Downloading 1/1"))
    let done = state.update(
      state.messageToTop(DownloadMode.Message.finished([PathBytes("/p/IMG_1.jpg"), PathBytes("/d/Beach.png")])))
    #expect(done.outcome == .picked([PathBytes("/p/IMG_1.jpg"), PathBytes("/d/Beach.png")]))
  }

  @Test func aFailedDownloadKeepsTheUIAndTheSelection() throws {
    var state = Self.mixedSelection()
    let effects = state.press(.enter)
    let (modeID, plan) = try #require(effects.download)
    let failed = state.update(
      state.messageToTop(DownloadMode.Message.failed(DownloadFailure(message: "Stock: server error (HTTP 500)"))))
    #expect(failed == [.stopModeTasks(modeID: modeID)])
    #expect(plan.remoteCount == 1)
    #expect(state.isOnGrid)
    #expect(state.selection.count == 2)
    #expect(state.notice?.isError == true)
    #expect(state.notice?.text.contains("HTTP 500") == true)
  }

  @Test func escapeCancelsTheDownloadAndLateResultsAreDropped() throws {
    var state = Self.mixedSelection()
    let effects = state.press(.enter)
    let (modeID, plan) = try #require(effects.download)
    #expect(state.update(.key(.escape)).contains(.stopModeTasks(modeID: modeID)))
    #expect(state.isOnGrid)
    let late = AnyHashableSendable(DownloadMode.Message.finished([]))
    #expect(state.update(.modeMessage(modeID: modeID, late)).outcome == nil)
    #expect(plan.remoteCount == 1)
  }

  @Test func printURLsPrintsRemoteURLsWithoutDownloading() {
    var options = AppOptions()
    options.printsURLs = true
    var state = Self.mixedSelection(options: options)
    let effects = state.press(.enter)
    #expect(effects.outcome == .picked([PathBytes("/p/IMG_1.jpg"), PathBytes("http://s/o/Beach.png")]))
  }

  @Test func aSourceDescribingItselfUpdatesTheBar() {
    var (state, _) = Fixture.started(sources: [Fixture.source("Holiday", capabilities: [.paging])])
    var updated = state.sources[0]
    updated.capabilities = [.paging, .search]
    _ = state.update(.sourceUpdated(sourceIndex: 0, updated))
    state.press(.char("/"))
    #expect(state.top(SearchPrompt.self) == SearchPrompt(query: ""))
  }

  @Test func switchingToASourceWhosePageFailedTriesAgain() {
    var (state, effects) = Fixture.started(sources: [
      Fixture.source(), Fixture.source("Holiday", id: "command:Holiday"),
    ])
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    let load = effects.loads.first { $0.sourceIndex == 1 }!
    _ = state.update(.pageFailed(load, "Holiday exited with status 1"))
    #expect(state.grid.scopeStacks[1].last?.error != nil)
    let retry = state.update(.key(.tab))
    #expect(retry.loads.map(\.sourceIndex) == [1])
    #expect(state.scope?.error == nil)
  }

  @Test func aDownloadThatAsksToSignInShowsTheForm() throws {
    var state = Self.mixedSelection()
    let effects = state.press(.enter)
    let (modeID, plan) = try #require(effects.download)
    let failure = DownloadFailure(message: "Stock asks to sign in again", sourceID: "web:Stock", signIn: Self.prompt)
    _ = state.update(.modeMessage(modeID: modeID, AnyHashableSendable(DownloadMode.Message.failed(failure))))
    #expect(plan.remoteCount == 1)
    guard let form = state.top(SignInMode.self)?.form else {
      Issue.record("the form should open: \(String(describing: state.topMode))")
      return
    }
    #expect(form.sourceIndex == 1)
    #expect(form.error == "Stock asks to sign in again")
    #expect(state.selection.count == 2)
    #expect(SourceBarView.labels(state).last == "[2 ▤ Stock*]")
  }

  @Test func aPageOfRepeatsEndsTheListing() {
    var (state, effects) = Fixture.started()
    let first = Fixture.photos(1...6)
    _ = state.answerLoad(from: effects, with: first, total: 60, hasMore: true)
    let load = PageLoad(
      sourceIndex: 0, scope: .root, request: PageRequest(offset: 6, limit: 48), generation: state.scope!.generation)
    state.grid.scopeStacks[0][0].loadingOffset = 6
    _ = state.update(.pageLoaded(load, Page(items: first, hasMore: true, total: 60)))
    #expect(state.scope?.offersMore == false)
    #expect(state.scope?.total == 6)
    #expect(state.scope?.items.count == 6)
  }
}
