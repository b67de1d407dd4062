import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The Places scope: `P` in the pure update, and the Photos source's
/// listings of countries, their places and a place's photos.
@Suite struct PlacesScopeTests {
  static func started() -> (AppState, [Effect]) {
    Fixture.started(sources: [
      Fixture.source("Files"),
      Fixture.source("Photos", capabilities: [.paging, .search, .timeline, .places]),
    ])
  }

  func folderID(_ effects: [Effect]) -> FolderID? {
    guard case .folder(let id)? = effects.loads.last?.scope else { return nil }
    return id
  }

  @Test func pOpensTheCountriesOfPhotosFromAnyTabAndEscGoesBackUp() {
    var (state, _) = Self.started()
    var effects = state.press(.char("P"))
    #expect(state.grid.activeSource == 1)
    #expect(folderID(effects) == PlaceFolder.countries.id)
    #expect(state.scope?.label == "Places")
    effects = state.answerLoad(
      from: effects,
      with: [PhotoItem(id: PlaceFolder.country(code: "PT").id, kind: .folder(count: 4), title: Array("Portugal".utf8))])
    // .. Back, then Portugal: Enter opens it.
    effects = state.press(.right, .enter)
    #expect(folderID(effects) == PlaceFolder.country(code: "PT").id)
    #expect(state.scope?.label == "Portugal")
    // P again inside Places: back to the countries.
    state.press(.char("P"))
    #expect(state.scope?.label == "Places")
    state.press(.escape)
    #expect(state.scope?.isRoot == true && state.grid.activeSource == 1)
  }

  @Test func withoutASourceWithPlacesPSaysWhere() {
    var (state, _) = Fixture.started()
    let effects = state.press(.char("P"))
    #expect(effects.loads.isEmpty)
    #expect(state.notice?.text.contains("Places are in Photos") == true)
  }

  @Test func theSourceListsCountriesThenPlacesThenPhotosByDay() async throws {
    let photos = try IndexedPlacesTests()
    let index = photos.index()
    try photos.scan(index, try IndexedPlacesTests.namer())
    let source = TimelineSource(index: index, roots: [PathBytes(photos.root)])
    let request = PageRequest(offset: 0, limit: 100)
    func titles(_ page: Page) -> [String] {
      page.items.map { item in
        guard case .folder(let count?) = item.kind else { return String(decoding: item.title, as: UTF8.self) }
        return String(decoding: item.title, as: UTF8.self) + " \(count)"
      }
    }
    let countries = try await source.items(in: PlaceFolder.countries.id, page: request)
    #expect(titles(countries) == ["Portugal 4", "Brazil 1", "Japan 1"])
    // The cover is the newest photo: Sintra, at 16:00 on 14 June.
    #expect(countries.items[0].thumbnail == .file(PathBytes(photos.root + "/IMG_0003.jpg")))
    let portugal = try await source.items(in: countries.items[0].id, page: request)
    #expect(titles(portugal) == ["Lisbon 2", "Porto 1", "Sintra 1"])
    #expect(portugal.items[0].thumbnail == .file(PathBytes(photos.root + "/IMG_0002.jpg")))
    let lisbon = try await source.items(in: portugal.items[0].id, page: request)
    #expect(titles(lisbon) == ["IMG_0002.jpg", "IMG_0001.jpg"])
    #expect(lisbon.days?.map(\.count) == [2])
  }
}
