import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerLibrary

/// Many at once: the focused day, a range from the mark, all listed,
/// invert; a listing only partly loaded is asked for whole first.
@Suite struct SelectManyTests {
  typealias Timeline = TimelineBrowsingTests

  func picked(_ state: AppState) -> [String] {
    state.selection.photos.map { String(decoding: $0.title, as: UTF8.self) }
  }

  @Test func theFocusedDayIsSelectedAtOnce() throws {
    var (state, _) = Timeline.started()
    // c1, the first photo of 30 May (7 photos).
    for _ in 0..<20 where state.focusedTitle != "c1.jpg" { state.press(.right) }
    try #require(state.focusedTitle == "c1.jpg")
    state.press(.char("D"))
    #expect(picked(state) == (1...7).map { "c\($0).jpg" })
    #expect(state.notice?.text == "7 selected (of 30 May 2025): 7 picked")
    #expect(state.pickGroups.map(\.picked) == [7])
    // The tray says where they came from, and follows unpicks.
    state.press(.right, .char(" "))
    #expect(state.pickGroups.map(\.picked) == [6])
    let tray = AppView.render(state, theme: .monochrome).plainText.components(separatedBy: "\n").dropLast().last!
    #expect(tray.hasPrefix("Picked 6: (6 of 30 May 2025)"))
    // Details of each pick come from its listing.
    #expect(state.selection.photos[0].details?.taken?.date == CivilDate(year: 2025, month: 5, day: 30))
  }

  @Test func aRangeFromTheMarkToTheFocusEitherWay() {
    var (state, _) = Timeline.started()
    state.press(.right)
    state.press(.char("m"))
    #expect(state.grid.mark != nil)
    state.press(.right, .right, .right)
    #expect(state.focusedTitle == "c2.jpg")
    state.press(.char("M"))
    #expect(picked(state) == ["a2.jpg", "b1.jpg", "c1.jpg", "c2.jpg"])
    // Backwards from a later mark: the photos between, once each.
    state.press(.char("m"), .left, .left, .left, .left, .char("M"))
    #expect(picked(state) == ["a2.jpg", "b1.jpg", "c1.jpg", "c2.jpg", "a1.jpg"])
  }

  @Test func withoutAMarkRangeSaysHow() {
    var (state, _) = Timeline.started()
    state.press(.char("M"))
    #expect(state.selection.isEmpty && state.notice?.text.hasPrefix("No mark in this listing") == true)
  }

  @Test func allAndInvert() {
    var (state, _) = Timeline.started()
    state.press(.char(" "))
    state.press(.char("i"))
    #expect(state.selection.count == Timeline.photos.count - 1 && !picked(state).contains("a1.jpg"))
    state.press(.char("a"))
    #expect(state.selection.count == Timeline.photos.count)
    state.press(.char("i"))
    #expect(state.selection.isEmpty && state.pickGroups.isEmpty)
  }

  @Test func maxIsKept() {
    var options = AppOptions()
    options.limits.maximum = 3
    var (state, effects) = Fixture.started(options: options)
    _ = state.answerLoad(from: effects, with: Fixture.photos(1...9))
    state.press(.char("a"))
    #expect(state.selection.count == 3 && state.notice?.isError == true)
  }

  @Test func aPartlyLoadedListingIsAskedForWholeFirst() throws {
    var (state, _) = Timeline.started(loaded: 5)
    // As on a screen already full: the rest waits for Load-more.
    state.scope?.revealOnArrival = false
    state.press(.char("}"), .char("}"))
    try #require(state.focusedTitle == "c1.jpg")
    let effects = state.press(.char("D"))
    let sweep = effects.loads.last!
    #expect(sweep.sweep == .day(state.focusedItem!.taken!.day) && sweep.request.offset == 0)
    #expect(state.selection.isEmpty)
    var page = Page(items: Timeline.items, hasMore: false, total: Timeline.photos.count)
    page.days = Timeline.days
    _ = state.update(.pageLoaded(sweep, page))
    #expect(picked(state) == (1...7).map { "c\($0).jpg" })
    // The listing shown is as it was.
    #expect(state.scope!.items.count == 5)
    // All, the same way.
    let all = state.press(.char("a")).loads.last!
    _ = state.update(.pageLoaded(all, page))
    #expect(state.selection.count == Timeline.photos.count)
  }
}
