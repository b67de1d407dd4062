import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A picked file deleted while the picker was open is never printed after a
/// reported success: it is marked in the tray and Enter must be pressed
/// again, knowingly, to print the others.
@Suite struct ConfirmTests {
  private func pickedThree() -> AppState {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5), total: 5)
    state.press(.char(" "), .right, .char(" "), .right, .char(" "))
    return state
  }

  private func check(in effects: [Effect]) -> PickCheck? {
    effects.lazy.compactMap { if case .checkPicked(let check) = $0 { check } else { nil } }.first
  }

  private let gone: Set<PathBytes> = [PathBytes("/p/IMG_2.jpg")]

  @Test func enterChecksTheFilesBeforePrinting() {
    var state = pickedThree()
    let effects = state.update(.key(.enter))
    #expect(effects.outcome == nil)
    #expect(check(in: effects)?.localPaths == ["/p/IMG_1.jpg", "/p/IMG_2.jpg", "/p/IMG_3.jpg"].map(PathBytes.init))
  }

  @Test func aGoneFileIsMarkedAndEnterAgainPrintsTheOthers() {
    var state = pickedThree()
    let first = state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: gone))
    #expect(first.outcome == nil)
    #expect(state.notice?.isError == true)
    #expect(state.notice?.text.contains("IMG_2.jpg no longer exists") == true)
    #expect(state.notice?.text.contains("Enter again prints the other 2") == true)
    let tray = AppView.render(state, theme: .colored).plainText.split(separator: "\n").dropLast().last ?? ""
    #expect(tray.contains("✗ IMG_2.jpg") && !tray.contains("✗ IMG_1.jpg"))
    #expect(state.selection.count == 3, "nothing is dropped from the selection")

    let second = state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: gone))
    #expect(second.outcome == .picked(["/p/IMG_1.jpg", "/p/IMG_3.jpg"].map(PathBytes.init)))
  }

  /// A named pipe put where a picked photo was exists: it is named for
  /// what it is, not as gone.
  @Test func aPathThatIsNoLongerARegularFileIsNamedSo() {
    var state = pickedThree()
    _ = state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: gone, notFiles: gone))
    #expect(state.notice?.text.contains("IMG_2.jpg is not a regular file") == true)
    #expect(state.notice?.text.contains("no longer exists") == false)
  }

  /// Esc at the top or q with picks asks once; Enter then prints them, a
  /// second Esc leaves without them, and Ctrl-C never asks.
  @Test func leavingWithPicksAsksOnce() {
    var state = pickedThree()
    #expect(state.update(.key(.escape)).outcome == nil)
    let bottom = AppView.render(state, theme: .colored).plainText.split(separator: "\n").last ?? ""
    #expect(bottom.hasPrefix("3 picked: Enter prints them, Esc leaves without them"))
    #expect(check(in: state.update(.key(.enter)))?.localPaths.count == 3)

    state = pickedThree()
    _ = state.update(.key(.char("q")))
    #expect(state.update(.key(.escape)).outcome == .cancelled)

    state = pickedThree()
    _ = state.update(.key(.escape))
    #expect(state.update(.key(.char("j"))).outcome == nil)
    #expect(state.isOnGrid, "another key goes back to the grid")

    state = pickedThree()
    #expect(state.update(.key(.ctrl("c"))).outcome == .cancelled)
  }

  @Test func anotherFileGoneSinceTheWarningWarnsAgain() {
    var state = pickedThree()
    _ = state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: gone))
    let both: Set<PathBytes> = gone.union([PathBytes("/p/IMG_3.jpg")])
    let second = state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: both))
    #expect(second.outcome == nil)
    #expect(state.notice?.text.hasPrefix("2 picked files no longer exist") == true)
    let third = state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: both))
    #expect(third.outcome == .picked([PathBytes("/p/IMG_1.jpg")]))
  }

  @Test func removingTheGoneFileFromTheTrayPrintsTheRest() {
    var state = pickedThree()
    _ = state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: gone))
    state.press(.char("t"), .left, .char("x"))
    #expect(state.selection.count == 2)
    #expect(state.press(.enter).outcome == .picked(["/p/IMG_1.jpg", "/p/IMG_3.jpg"].map(PathBytes.init)))
  }

  @Test func whenEveryPickIsGoneNothingIsPrinted() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...2), total: 2)
    let alone = check(in: state.update(.key(.enter)))!
    for _ in 0..<2 {
      #expect(state.update(.pickedChecked(alone, missing: [PathBytes("/p/IMG_1.jpg")])).outcome == nil)
      #expect(state.notice?.text == "IMG_1.jpg no longer exists: nothing to print")
    }
  }

  @Test func theMinimumStillHoldsWithoutTheGoneFile() {
    var (state, effects) = Fixture.started(options: AppOptions(limits: SelectionLimits(minimum: 3)))
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...5), total: 5)
    state.press(.char(" "), .right, .char(" "), .right, .char(" "))
    for _ in 0..<2 {
      #expect(state.update(.pickedChecked(check(in: state.update(.key(.enter)))!, missing: gone)).outcome == nil)
    }
    #expect(state.notice?.text.hasPrefix("Pick at least 3 photos") == true)
  }
}
