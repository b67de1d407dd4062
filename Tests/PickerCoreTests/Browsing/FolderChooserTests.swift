import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerLibrary

/// The desktop's folder chooser: Enter chooses a folder (or a photo's
/// folder), Space opens one.
@Suite struct FolderChooserTests {
  static func started() -> (AppState, [Effect]) {
    var options = AppOptions()
    options.choosesFolders = true
    var (state, effects) = Fixture.started(options: options)
    var trip = Fixture.folder("trip")
    trip.outputPath = PathBytes("/p/trip")
    effects = state.answerLoad(from: effects, with: [trip] + Fixture.photos(1...2))
    return (state, effects)
  }

  @Test func enterOnAFolderChoosesIt() {
    var (state, _) = Self.started()
    #expect(state.press(.enter).contains(.finish(.picked([PathBytes("/p/trip")]))))
  }

  @Test func enterOnAPhotoChoosesItsFolder() {
    var (state, _) = Self.started()
    state.press(.right)
    #expect(state.press(.enter).contains(.finish(.picked([PathBytes("/p")]))))
  }

  @Test func spaceOpensAFolder() {
    var (state, _) = Self.started()
    let opened = state.press(.char(" "))
    #expect(opened.loads.last?.scope == .folder("trip") && state.selection.isEmpty)
  }
}
