import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerLibrary

@Suite struct CullingKeysTests {
  private func grid(_ count: Int = 6) -> AppState {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...count))
    return state
  }

  private func writes(_ effects: [Effect]) -> [CullingWrite] {
    effects.compactMap { if case .cull(let write) = $0 { write } else { nil } }
  }

  @Test func altDigitRatesTheFocusedPhotoAtOnceAndAsksForItsXMP() {
    var state = grid()
    let effects = state.press(.alt("4"))
    #expect(writes(effects).map(\.path) == [PathBytes("/p/IMG_1.jpg")])
    #expect(
      writes(effects).first?.change == CullingChange(culling: Culling(rating: 4), setsRating: true, setsLabel: false))
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: 4))
  }

  @Test func theGridsDigitsStillChooseSources() {
    var state = grid()
    #expect(writes(state.press(.char("3"))).isEmpty)
    #expect(state.culling(of: state.focusedItem!) == .none)
  }

  @Test func rejectTogglesAndEndsTheStars() {
    var state = grid()
    state.press(.alt("5"))
    state.press(.char("X"))
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: -1))
    let back = writes(state.press(.char("X")))
    #expect(back.first?.culling == Culling(rating: 0))
  }

  @Test func aLabelTogglesOffWhenPressedAgainAndKeepsTheStars() {
    var state = grid()
    state.press(.alt("3"), .alt("6"))
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: 3, label: .red))
    let effects = state.press(.alt("6"))
    // Only the label is written: a rating changed meanwhile on disk stays.
    #expect(writes(effects).first?.change.setsRating == false)
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: 3))
  }

  @Test func undoTakesBackTheLastChangeOnly() {
    var state = grid()
    state.press(.alt("2"), .alt("7"), .alt("5"))
    let effects = state.press(.char("u"))
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: 2, label: .yellow))
    #expect(writes(effects).first?.change.setsLabel == false)
    state.press(.char("u"), .char("u"))
    #expect(state.culling(of: state.focusedItem!) == .none)
    state.press(.char("u"))
    #expect(state.notice?.text == "Nothing to undo")
  }

  @Test func onASelectedPhotoEverySelectedOneIsRated() {
    var state = grid()
    state.press(.char(" "), .right, .right, .char(" "))
    let effects = state.press(.alt("5"))
    #expect(Set(writes(effects).map(\.path)) == [PathBytes("/p/IMG_1.jpg"), PathBytes("/p/IMG_3.jpg")])
    #expect(state.notice?.text.contains("2 selected photos") == true)
    // On a photo not selected, only it.
    state.press(.right)
    #expect(writes(state.press(.alt("1"))).map(\.path) == [PathBytes("/p/IMG_4.jpg")])
    // One undo takes back the whole group.
    state.press(.char("u"), .char("u"))
    #expect(state.culling.given[PathBytes("/p/IMG_3.jpg")] == Culling.none)
  }

  @Test func theTileSaysTheStarsTheLabelAndTheReject() {
    var state = grid()
    state.press(.alt("3"), .alt("9"), .right, .char("X"))
    let text = AppView.render(state, theme: .monochrome).plainText
    #expect(text.contains("★★★"))
    #expect(text.contains("B"))
    #expect(text.contains("✗ rejected"))
  }

  @Test func aWriteThatFailsIsSaidOncePerFolder() {
    var state = grid()
    let write = writes(state.press(.alt("2")))[0]
    _ = state.update(.cullingWritten(write, problem: "cannot write /p/IMG_1.jpg.xmp: Permission denied"))
    #expect(state.notice?.isError == true)
    state.notice = nil
    _ = state.update(.cullingWritten(write, problem: "cannot write /p/IMG_1.jpg.xmp: Permission denied"))
    #expect(state.notice == nil)
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: 2))
  }

  @Test func ratingKeysAreRebindableByName() {
    var keys = KeyMaps.standard
    #expect(keys.rebind(mode: "grid", action: "rate-3", to: [.char("3")]) == nil)
    var options = AppOptions()
    options.keys = keys
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char("3"))
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: 3))
    #expect(keys.rebind(mode: "preview", action: "label-purple", to: [.char("0")]) == nil)
  }

  @Test func hideRejectedAsksForTheListingAgainWithoutThem() {
    var state = grid()
    let effects = state.press(.char("H"))
    #expect(effects.loads.first?.request.hidesRejected == true)
    #expect(state.press(.char("H")).loads.first?.request.hidesRejected == false)
  }
}

@Suite struct CullingModesTests {
  @Test func thePreviewRatesWithLightroomsDigits() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char("v"), .char("4"), .char("8"))
    #expect(state.culling(of: state.focusedItem!) == Culling(rating: 4, label: .green))
    // 0 is still the loupe's fit there; Alt-0 clears the stars.
    state.press(.alt("0"))
    #expect(state.culling(of: state.focusedItem!) == Culling(label: .green))
  }

  @Test func compareRatesTheActivePane() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char(" "), .right, .char(" "), .char("c"), .tab, .char("2"))
    #expect(state.culling.given == [PathBytes("/p/IMG_2.jpg"): Culling(rating: 2)])
  }
}

@Suite struct CullingReviewTests {
  private func writes(_ effects: [Effect]) -> [CullingWrite] {
    effects.compactMap { if case .cull(let write) = $0 { write } else { nil } }
  }

  @Test func thePreviewRatesItsPhotoAloneEvenWhenSelected() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    state.press(.char(" "), .right, .char(" "), .char("v"), .char("4"))
    #expect(state.culling.given == [PathBytes("/p/IMG_2.jpg"): Culling(rating: 4)])
  }

  @Test func listedVerdictsAreKeptForPhotosNoLongerShown() {
    var (state, effects) = Fixture.started()
    var rated = Fixture.photos(1...3)
    rated[0].culling = Culling(rating: 2, label: .blue)
    _ = state.answerLoad(from: effects, with: rated)
    #expect(state.currentCulling(of: PathBytes("/p/IMG_1.jpg")) == Culling(rating: 2, label: .blue))
    state.press(.char(" "), .right, .char(" "))
    let toggled = writes(state.press(.alt("9")))
    // Not every photo had blue: blue is set, on both, and the stars kept.
    #expect(toggled.first { $0.path == PathBytes("/p/IMG_1.jpg") }?.culling == Culling(rating: 2, label: .blue))
    #expect(toggled.first { $0.path == PathBytes("/p/IMG_2.jpg") }?.culling == Culling(label: .blue))
    let undone = writes(state.press(.char("u")))
    #expect(undone.first { $0.path == PathBytes("/p/IMG_1.jpg") }?.culling == Culling(rating: 2, label: .blue))
    #expect(undone.first { $0.path == PathBytes("/p/IMG_2.jpg") }?.culling == Culling.none)
  }

  @Test func whileRejectedAreHiddenARejectListsThePageAgain() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3))
    _ = state.answerLoad(from: state.press(.char("H")), with: Fixture.photos(1...3))
    let write = writes(state.press(.char("X")))[0]
    let relist = state.update(.cullingWritten(write, problem: nil))
    #expect(relist.loads.first?.request.hidesRejected == true)
  }
}
