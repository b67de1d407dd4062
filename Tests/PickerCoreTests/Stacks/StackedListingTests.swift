import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// Stacks in a listing by date: a burst is one tile with its count and its
/// sharpest photo as the cover; Enter opens it, Space picks the cover, `c`
/// compares its photos, `S` turns stacking off and on; a burst split
/// across pages is still one stack, and date jumps count its photos.
@Suite struct StackedListingTests {
  static let day = CivilDate(year: 2025, month: 6, day: 14).dayNumber
  static let noon = Int64(day) * 86_400_000 + 12 * 3_600_000

  /// A photo taken `seconds` before noon of `day` (listings are newest
  /// first), with a hash and a sharpness.
  static func photo(
    _ name: String, seconds: Double, hash: UInt64, sharpness: Double, daysBefore: Int = 0
  ) -> PhotoItem {
    var item = Fixture.photo(name)
    item.taken = TakenDate(
      wallClock: noon - Int64(daysBefore) * 86_400_000 - Int64(seconds * 1000), origin: .exif)
    item.signature = PhotoSignature(hash: hash, sharpness: sharpness)
    return item
  }

  /// Newest first: a single, a burst of five (b3 the sharpest; the hashes
  /// a few bits apart), a different scene half a second after the
  /// burst's last frame, the burst's scene an hour later, and a photo of
  /// the day before.
  static var listing: [PhotoItem] {
    let scene: UInt64 = 0xF0F0_F0F0_0F0F_0F0F
    return [
      photo("single.jpg", seconds: 0, hash: 0x1234_5678_9ABC_DEF0, sharpness: 50),
      photo("later.jpg", seconds: 600, hash: scene, sharpness: 80),
      photo("b1.jpg", seconds: 4_200, hash: scene, sharpness: 20),
      photo("b2.jpg", seconds: 4_200.5, hash: scene ^ 0b11, sharpness: 40),
      photo("b3.jpg", seconds: 4_201, hash: scene ^ 0b1, sharpness: 90),
      photo("b4.jpg", seconds: 4_202, hash: scene ^ 0b111, sharpness: 30),
      photo("b5.jpg", seconds: 4_203, hash: scene ^ 0b1111, sharpness: 10),
      photo("turned.jpg", seconds: 4_203.5, hash: ~scene, sharpness: 70),
      photo("yesterday.jpg", seconds: 0, hash: scene, sharpness: 60, daysBefore: 1),
    ]
  }

  static func started(_ listing: [PhotoItem] = listing, hasMore: Bool = false) -> AppState {
    var options = AppOptions()
    options.today = day
    var (state, effects) = Fixture.started(
      sources: [Fixture.source("Photos", capabilities: [.paging, .search, .timeline])], options: options)
    _ = state.answerLoad(from: effects, with: listing, total: hasMore ? nil : listing.count, hasMore: hasMore)
    return state
  }

  /// A timeline whose pages hold four photos, its first page not answered.
  static func startedInPagesOfFour() -> (AppState, [Effect]) {
    var options = AppOptions()
    options.today = day
    options.pageSize = 4
    return Fixture.started(
      sources: [Fixture.source("Photos", capabilities: [.paging, .search, .timeline])], options: options)
  }

  static func titles(_ state: AppState) -> [String] {
    state.scope!.items.map { String(decoding: $0.title, as: UTF8.self) }
  }

  @Test func aBurstIsOneTileWithItsCountAndItsSharpestAsCover() {
    let state = Self.started()
    // The hour-later shot and the turned camera stay apart.
    #expect(Self.titles(state) == ["single.jpg", "later.jpg", "b3.jpg", "turned.jpg", "yesterday.jpg"])
    let stack = state.scope!.items[2].stack!
    #expect(stack.count == 5 && stack.cover.id == "b3.jpg")
    #expect(stack.members.map(\.id) == ["b1.jpg", "b2.jpg", "b3.jpg", "b4.jpg", "b5.jpg"])
    #expect(stack.scores == [22, 44, 100, 33, 11])
    #expect(stack.bySharpness.prefix(4).map(\.id) == ["b3.jpg", "b2.jpg", "b4.jpg", "b1.jpg"])
    let screen = AppView.render(state, theme: .monochrome).plainText
    #expect(screen.contains("×5"))
    // The count is of photos, not tiles.
    #expect(screen.components(separatedBy: "\n")[1].hasSuffix("9 of 9"))
  }

  @Test func enterOpensTheStackOnItsCoverAndBackReturns() {
    var state = Self.started()
    state.press(.right, .right)
    #expect(state.focusedTitle == "b3.jpg")
    #expect(state.press(.enter).loads.isEmpty)
    #expect(Self.titles(state) == ["b1.jpg", "b2.jpg", "b3.jpg", "b4.jpg", "b5.jpg"])
    #expect(state.focusedTitle == "b3.jpg")
    let screen = AppView.render(state, theme: .monochrome).plainText
    // The stack is named by its cover.
    #expect(screen.contains("★ b3.jpg") && screen.contains("×5 b3.jpg"))
    #expect(state.stackSharpness(of: state.scope!.items[0])! == (22, 5))
    state.press(.backspace)
    #expect(state.focusedTitle == "b3.jpg" && state.scope!.items.count == 5)
  }

  @Test func spacePicksTheCoverAndEnterPrintsItsPath() {
    var state = Self.started()
    state.press(.right, .right, .char(" "))
    #expect(state.selection.photos.map(\.key.itemID) == ["b3.jpg"])
    // Opened, the cover shows picked.
    state.press(.enter)
    #expect(state.selection.contains(state.selectionKey(for: state.focusedItem!)))
    state.press(.backspace)
    // Enter on the stack opens it again; on a photo it confirms the picks.
    state.press(.left)
    let effects = state.press(.enter)
    #expect(effects.outcome == .picked([PathBytes("/p/b3.jpg")]))
  }

  @Test func capitalSTurnsStackingOffAndOnKeepingTheFocusedPhoto() {
    var state = Self.started()
    state.press(.right, .right)
    state.press(.char("S"))
    #expect(state.scope!.items.count == 9)
    // Still on the photo the tile showed: the cover.
    #expect(state.focusedTitle == "b3.jpg")
    #expect(state.notice?.text.hasPrefix("Stacks off") == true)
    state.press(.right, .right, .char("S"))
    #expect(state.scope!.items.count == 5 && state.focusedTitle == "b3.jpg")
  }

  @Test func stacksCanBeOffFromTheStart() {
    var options = AppOptions()
    options.stacksPhotos = false
    var (state, effects) = Fixture.started(
      sources: [Fixture.source("Photos", capabilities: [.paging, .search, .timeline])], options: options)
    _ = state.answerLoad(from: effects, with: Self.listing, total: 9)
    #expect(state.scope!.items.count == 9)
  }

  @Test func aFolderSortedByNameNeverStacks() {
    var (state, effects) = Fixture.started()
    _ = state.answerLoad(from: effects, with: Self.listing, total: 9)
    #expect(state.scope!.items.count == 9)
  }

  @Test func cOnAStackComparesItsSharpestFirstWithTheirScores() {
    var state = Self.started()
    state.press(.right, .right, .char("c"))
    let compare = state.compareState!
    #expect(compare.photos.map(\.key.itemID) == ["b3.jpg", "b2.jpg", "b4.jpg", "b1.jpg", "b5.jpg"])
    #expect(compare.shown.count == 4)
    // The index's scores: nothing to decode again.
    #expect(state.readings.sharpness[compare.photos[0].reference] == .some(90))
    // Space picks the active (sharpest) photo; Enter confirms it.
    state.press(.char(" "))
    let effects = state.press(.enter)
    #expect(effects.outcome == .picked([PathBytes("/p/b3.jpg")]))
  }

  @Test func aBurstSplitAcrossPagesIsOneStack() {
    var (state, effects) = Self.startedInPagesOfFour()
    let listing = Self.listing
    effects = state.answerLoad(from: effects, with: Array(listing[0..<4]), total: 9, hasMore: true)
    #expect(Self.titles(state) == ["single.jpg", "later.jpg", "b2.jpg"])
    // The next page (asked ahead, then shown by Load-more) continues the burst.
    if effects.loads.isEmpty { effects = state.press(.end) }
    let load = effects.loads.last!
    #expect(load.request.offset == 4)
    _ = state.update(.pageLoaded(load, Page(items: Array(listing[4...]), hasMore: false, total: 9)))
    _ = state.scope!.offersMore ? state.press(.end, .enter) : []
    #expect(Self.titles(state) == ["single.jpg", "later.jpg", "b3.jpg", "turned.jpg", "yesterday.jpg"])
    let scope = state.scope!
    #expect(scope.entryStarts == [0, 1, 2, 7, 8] && scope.loadedPhotoCount == 9)
    #expect(scope.itemIndex(atListingOffset: 5) == 2 && scope.itemIndex(atListingOffset: 7) == 3)
    #expect(scope.listingOffset(ofItem: 4) == 8)
  }

  /// `a` on a listing only partly loaded asks for it whole and stacks
  /// the answer as the scope does: the burst gives its cover, not five.
  @Test func selectingAllOfAPartlyLoadedListingPicksEachStacksCover() throws {
    let listing = Self.listing
    var state = Self.started(Array(listing[0..<4]), hasMore: true)
    // As on a screen already full: the rest waits for Load-more.
    state.scope?.revealOnArrival = false
    let sweep = try #require(state.press(.char("a")).loads.last)
    #expect(sweep.sweep == .all && sweep.request.offset == 0)
    _ = state.update(.pageLoaded(sweep, Page(items: listing, hasMore: false, total: 9)))
    let picked = state.selection.photos.map { String(decoding: $0.title, as: UTF8.self) }
    #expect(picked == ["single.jpg", "later.jpg", "b3.jpg", "turned.jpg", "yesterday.jpg"])
    // The entries a sweep makes are the ones a scope shows once loaded whole.
    let rule = state.scope!.stacking!
    #expect(rule.entries(of: listing).map(\.id) == Self.started().scope!.items.map(\.id))
    #expect(rule.entries(of: listing).map { $0.stack?.count ?? 1 } == [1, 1, 5, 1, 1])
    // With nothing to stack, the photos are the entries.
    let apart = listing.enumerated().map { offset, photo in
      var photo = photo
      photo.taken = TakenDate(wallClock: Self.noon - Int64(offset) * 3_600_000, origin: .exif)
      return photo
    }
    #expect(rule.entries(of: apart).map(\.id) == apart.map(\.id))
  }

  @Test func dateJumpsCountAStacksPhotos() {
    var state = Self.started()
    // The next day (older) starts at listing offset 8: the last tile.
    state.press(.char("}"))
    #expect(state.focusedTitle == "yesterday.jpg")
    state.press(.char("{"), .char("{"))
    #expect(state.focusedTitle == "single.jpg")
  }

  @Test func burstIDsJoinWhateverThePicturesSay() {
    let rule = StackingRule()
    var first = Self.photo("a.jpg", seconds: 0, hash: 0, sharpness: 1)
    var second = Self.photo("b.jpg", seconds: 30, hash: ~0, sharpness: 2)
    #expect(!rule.joins(second, after: first))
    first.burstID = "burst-1"
    second.burstID = "burst-1"
    #expect(rule.joins(second, after: first))
    // A folder never joins.
    #expect(!rule.joins(Fixture.folder("x"), after: first))
  }

  @Test func theConfigSetsStacking() throws {
    let file = try ConfigFile.parse("[stacks]\nenabled = false\nmax_gap = 0.5\nmax_distance = 6\n", path: "c.toml")
    #expect(!file.stacksPhotos && file.stackingRule == StackingRule(maxGap: 0.5, maxDistance: 6))
    #expect(throws: ConfigFile.Error.self) { try ConfigFile.parse("[stacks]\nmax_gap = \"2\"\n", path: "c.toml") }
    do {
      _ = try ConfigFile.parse("[stacks]\ngap = 2\n", path: "c.toml")
      Issue.record("an unknown key was accepted")
    } catch {
      #expect(error.description.contains("its keys: enabled, max_gap, max_distance"))
    }
  }
}

extension StackedListingTests {
  @Test func dayOnlyDatesNeverStackOnTime() {
    let rule = StackingRule()
    var first = Fixture.photo("IMG-20230614-WA0001.jpg")
    var second = Fixture.photo("IMG-20230614-WA0002.jpg")
    let midnight = Int64(Self.day) * 86_400_000
    first.taken = TakenDate(wallClock: midnight, origin: .fileName)
    second.taken = TakenDate(wallClock: midnight, origin: .fileName)
    first.signature = PhotoSignature(hash: 7, sharpness: 1)
    second.signature = PhotoSignature(hash: 7, sharpness: 1)
    #expect(!rule.joins(second, after: first))
    // The same names with EXIF times a second apart do.
    first.taken = TakenDate(wallClock: midnight + 5_000, origin: .exif)
    second.taken = TakenDate(wallClock: midnight + 4_000, origin: .exif)
    #expect(rule.joins(second, after: first))
  }
}

/// What a review of the stacks found, each pinned by a test.
extension StackedListingTests {
  @Test func aChangeWhileAPageIsFetchedAheadOrInFlightIsListedAfterAll() {
    var (state, effects) = Self.startedInPagesOfFour()
    let listing = Self.listing
    effects = state.answerLoad(from: effects, with: Array(listing[0..<4]), total: 9, hasMore: true)
    // A page on its way: the change waits for it.
    let inFlight = try! #require(effects.loads.last)
    #expect(state.update(.sourceChanged(sourceIndex: 0, .contentChanged)).loads.isEmpty)
    // It arrives: now the listing is read again from its start.
    let after = state.update(.pageLoaded(inFlight, Page(items: Array(listing[4...]), hasMore: false, total: 9)))
    let relist = try! #require(after.loads.last)
    #expect(relist.request.offset == 0 && relist.request.limit >= 9)
  }

  @Test func sortingInsideAnOpenedStackKeepsItsPhotos() {
    var state = Self.started()
    state.press(.right, .right, .enter)
    #expect(state.press(.char("s")).loads.isEmpty)
    #expect(state.scope!.items.count == 5)
    #expect(state.notice?.text.contains("keeps the order") == true)
  }

  @Test func theNextDayFromAStackTakenAcrossMidnightMovesPastIt() {
    // Newest first: noon on the 15th, a burst at 00:00:00.5 on the 15th
    // and 23:59:59.5 on the 14th, then noon on the 14th.
    let scene: UInt64 = 0xAAAA_5555_AAAA_5555
    var listing: [PhotoItem] = []
    listing = [
      Self.photo("noon15.jpg", seconds: 0, hash: 1, sharpness: 1, daysBefore: -1),
      Self.photo("m1.jpg", seconds: -0.5, hash: scene, sharpness: 1, daysBefore: -1),
      Self.photo("m2.jpg", seconds: 0.5, hash: scene ^ 1, sharpness: 3, daysBefore: 0),
      Self.photo("noon14.jpg", seconds: 0, hash: 2, sharpness: 1),
    ]
    listing[1].taken = TakenDate(wallClock: Self.noon + 12 * 3_600_000 + 500, origin: .exif)
    listing[2].taken = TakenDate(wallClock: Self.noon + 12 * 3_600_000 - 500, origin: .exif)
    var state = Self.started(listing)
    #expect(Self.titles(state) == ["noon15.jpg", "m2.jpg", "noon14.jpg"])
    state.press(.right)
    #expect(state.focusedItem?.stack != nil)
    // The 14th starts inside the stack (m2 is its photo): the jump goes on
    // to the next entry, not back onto the stack.
    state.press(.char("}"))
    #expect(state.focusedTitle == "noon14.jpg")
  }

  @Test func aPickedPhotoOfAStackShowsOnItsTileAndSpaceUnpicksIt() {
    var state = Self.started()
    // Inside the stack, pick a frame that is not the cover.
    state.press(.right, .right, .enter, .left, .char(" "))
    #expect(state.selection.photos.map(\.key.itemID) == ["b2.jpg"])
    state.press(.backspace)
    let tile = state.focusedItem!
    #expect(tile.id == "b3.jpg" && state.pickedMember(of: tile)?.id == "b2.jpg")
    #expect(AppView.render(state, theme: .monochrome).plainText.contains("✓"))
    // Space on the tile unpicks that frame, not picks the cover too.
    state.press(.char(" "))
    #expect(state.selection.isEmpty)
  }

  @Test func aPageFoldedIntoFewTilesIsFollowedAtOnce() {
    var (state, effects) = Self.startedInPagesOfFour()
    // The first page is one burst: one tile. The next page is shown as it
    // comes, not kept behind Load-more.
    let burst = Array(Self.listing[2..<7])
    effects = state.answerLoad(from: effects, with: Array(burst[0..<4]), total: 7, hasMore: true)
    #expect(state.scope!.items.count == 1)
    let next = try! #require(effects.loads.last)
    _ = state.update(
      .pageLoaded(next, Page(items: [burst[4]] + Array(Self.listing[7...]), hasMore: false, total: 7)))
    #expect(Self.titles(state) == ["b3.jpg", "turned.jpg", "yesterday.jpg"])
  }

  @Test func withTwoPicksCComparesThePicksEvenOnAStack() {
    var state = Self.started()
    state.press(.char(" "), .right, .char(" "), .right, .char("c"))
    #expect(state.compareState?.photos.map(\.key.itemID) == ["single.jpg", "later.jpg"])
  }
}

extension StackedListingTests {
  @Test func aMoveWhileTheListingIsReadAgainIsKeptWhenItArrives() {
    var state = Self.started()
    // The index changed (signatures read): the listing is read again.
    let relist = try! #require(state.update(.sourceChanged(sourceIndex: 0, .contentChanged)).loads.last)
    // Meanwhile the user moves on to the stack.
    state.press(.right, .right)
    #expect(state.focusedTitle == "b3.jpg")
    _ = state.update(.pageLoaded(relist, Page(items: Self.listing, hasMore: false, total: 9)))
    #expect(state.focusedTitle == "b3.jpg", "the relisted page took the focus back to where it was")
  }
}
