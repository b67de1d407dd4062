import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The selection journal: exact bytes through JSON, what can come back, and
/// the file written late, once, privately.
@Suite struct JournalTests {
  private func selection() -> Selection {
    var selection = Selection()
    // A name that is not UTF-8 must come back byte for byte.
    let odd = PathBytes([0x2F, 0x70, 0x2F, 0xFF, 0x2E, 0x6A, 0x70, 0x67])
    selection.insert(PickedPhoto(key: SelectionKey(sourceID: "folder:p", itemID: "x"), title: [0xFF], outputPath: odd))
    selection.insert(
      PickedPhoto(
        key: SelectionKey(sourceID: "web:Stock", itemID: "42"), title: Array("Beach".utf8),
        output: .remote(source: "web:Stock", url: "https://s/o/42.jpg")))
    selection.insert(Fixture.pickedPhoto("IMG_1.jpg"))
    return selection
  }

  @Test func picksSurviveTheRoundTripExactly() throws {
    let journal = SelectionJournal(selection())
    let decoded = try #require(SelectionJournal.decode(journal.encoded()))
    #expect(decoded.photos == selection().photos)
  }

  @Test func anythingElseIsNoJournal() {
    #expect(SelectionJournal.decode(Array("{".utf8)) == nil)
    #expect(SelectionJournal.decode(Array(#"{"version":99,"picks":[]}"#.utf8)) == nil)
  }

  @Test func onlyPicksOfOpenSourcesWhoseFilesExistComeBack() {
    let journal = SelectionJournal(selection())
    let offer = ResumeOffer(journal: journal, openSources: ["folder:p", "files"]) { $0 != PathBytes("/p/IMG_1.jpg") }
    #expect(offer.photos.map(\.key.itemID) == ["x"])
    #expect(offer.skipped == 2, "one file gone, one source not open")
  }

  @Test func restoringAddsAfterWhatIsPickedWithinMax() {
    var (state, effects) = Fixture.started(options: AppOptions(limits: SelectionLimits(maximum: 2)))
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...3), total: 3)
    state.press(.right, .char(" "))
    state.offerResume(ResumeOffer(photos: selection().photos, skipped: 1))
    #expect(state.notice?.text == "3 picks from a run that did not finish: R restores them")
    state.press(.char("R"))
    #expect(state.selection.photos.map(\.key.itemID) == ["IMG_2.jpg", "x"])
    #expect(state.notice?.text == "Restored 1 pick; 1 gone or from a source not open, skipped; 2 over --max 2 left out")
    state.press(.char("R"))
    #expect(state.notice?.text == "Nothing to restore: no earlier run left picks")
  }

  @Test func picksSavedOverOneLibraryAreNotOfferedInAnother() {
    let folder = TemporaryFolder()
    let library = [Fixture.source("Photos", id: "photos"), Fixture.source("Folders", id: "folders")]
    var other = library
    other[1].rootLabel = "/elsewhere"
    let file = JournalFile(path: folder.path + "/state/selection.json", delay: .seconds(30))
    file.run = JournalFile.run(of: library)
    var picks = Selection()
    picks.insert(Fixture.pickedPhoto("IMG_1.jpg"))
    file.record(picks)
    file.flush()
    let again = JournalFile(path: file.path)
    again.run = JournalFile.run(of: library)
    #expect(again.load()?.photos == picks.photos)
    again.run = JournalFile.run(of: other)
    #expect(again.load() == nil)
  }

  @Test func theFileIsWrittenOnceAfterABurstPrivatelyAndRemoved() throws {
    let folder = TemporaryFolder()
    let file = JournalFile(path: folder.path + "/state/selection.json", delay: .seconds(30))
    var picks = Selection()
    picks.insert(Fixture.pickedPhoto("IMG_1.jpg"))
    file.record(picks)
    picks.insert(Fixture.pickedPhoto("IMG_2.jpg"))
    file.record(picks)
    #expect(!FileManager.default.fileExists(atPath: file.path), "written only after the quiet time")
    file.flush()
    #expect(file.load()?.photos == picks.photos)
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    file.record(Selection())
    file.flush()
    #expect(!FileManager.default.fileExists(atPath: file.path), "an empty selection leaves no journal")
    file.record(picks)
    file.remove()
    file.flush()
    #expect(!FileManager.default.fileExists(atPath: file.path), "removed, and what was pending dropped")
  }
}
