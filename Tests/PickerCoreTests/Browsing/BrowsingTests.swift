import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct GridLayoutTests {
  @Test func defaultGeometryAt120x40() {
    let layout = GridLayout(size: TerminalSize(width: 120, height: 40), sizeLevel: GridLayout.defaultSizeLevel)
    #expect(layout.thumbnailWidth == 16 && layout.thumbnailHeight == 8)
    #expect(layout.columns == 6 && layout.visibleRows == 3)
  }

  @Test(arguments: [(80, 24), (120, 40), (200, 60), (30, 12), (24, 9)])
  func pageSizeIsAWholeNumberOfRows(width: Int, height: Int) {
    for level in GridLayout.thumbnailSizes.indices {
      let layout = GridLayout(size: TerminalSize(width: width, height: height), sizeLevel: level)
      for requested in [nil, 1, 7, 48, 100] as [Int?] {
        let size = layout.pageSize(requested: requested)
        #expect(
          size % layout.columns == 0, "\(width)x\(height) level \(level) requested \(String(describing: requested))")
        #expect(size >= (requested ?? 1))
        #expect(size < (requested ?? size) + layout.columns + max(48, layout.visibleCells * 2))
      }
    }
  }

  @Test func tilesFitInATinyTerminal() {
    let layout = GridLayout(size: TerminalSize(width: 24, height: 9), sizeLevel: 4)
    #expect(layout.tileWidth <= 24 && layout.tileHeight <= 5)
  }

  @Test func hitTesting() {
    let layout = GridLayout(size: TerminalSize(width: 120, height: 40), sizeLevel: 2)
    #expect(layout.hit(x: 0, y: 2, scrollRow: 0)! == (0, 0))
    #expect(layout.hit(x: 20, y: 14, scrollRow: 1)! == (2, 1))
    #expect(layout.hit(x: 18, y: 5, scrollRow: 0) == nil)  // the gap between tiles
    #expect(layout.hit(x: 5, y: 1, scrollRow: 0) == nil)  // the breadcrumb
  }
}

@Suite struct ScopeTests {
  @Test func rootHasNoBackAndLoadMoreOnlyWhileMore() {
    var scope = Scope(kind: .root, label: "/p", generation: 1)
    #expect(scope.cells.isEmpty)
    scope.receive(Page(items: Fixture.photos(1...3), hasMore: true))
    #expect(scope.cells == [.item(0), .item(1), .item(2), .loadMore])
    // A page fetched ahead waits behind Load-more until it is activated.
    scope.receive(Page(items: Fixture.photos(4...5), hasMore: false))
    #expect(scope.cells == [.item(0), .item(1), .item(2), .loadMore])
    let revealed = scope.revealPrefetched()
    #expect(revealed && scope.cells == [.item(0), .item(1), .item(2), .item(3), .item(4)])
    let revealedAgain = scope.revealPrefetched()
    #expect(!revealedAgain)
  }

  @Test func aPageTheUserWaitsForIsShownOnArrival() {
    var scope = Scope(kind: .root, label: "/p", generation: 1)
    scope.receive(Page(items: Fixture.photos(1...3), hasMore: true))
    scope.revealOnArrival = true
    scope.receive(Page(items: Fixture.photos(4...6), hasMore: true))
    #expect(scope.items.count == 6 && scope.prefetched == nil && !scope.revealOnArrival)
  }

  @Test func folderHasBackFirst() {
    var scope = Scope(kind: .folder("A"), label: "A", generation: 1)
    scope.receive(Page(items: Fixture.photos(1...2), hasMore: true))
    #expect(scope.cells == [.back, .item(0), .item(1), .loadMore])
    #expect(scope.cell(at: 0) == .back && scope.cell(at: 3) == .loadMore && scope.cell(at: 4) == nil)
  }

  @Test func repeatedIDsAreSkippedButCountTowardsTheOffset() {
    var scope = Scope(kind: .root, label: "/p", generation: 1)
    scope.receive(Page(items: Fixture.photos(1...3), hasMore: true))
    scope.revealOnArrival = true
    scope.receive(Page(items: Fixture.photos(3...4), hasMore: false))
    #expect(scope.items.map(\.id) == ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg", "IMG_4.jpg"])
    #expect(scope.nextOffset == 5)
  }

  @Test func anEmptyPageEndsPaging() {
    var scope = Scope(kind: .root, label: "/p", generation: 1)
    scope.receive(Page(items: [], hasMore: true))
    #expect(!scope.hasMore && scope.cells.isEmpty)
  }

  @Test func aFailedFirstPageOffersRetry() {
    var scope = Scope(kind: .root, label: "/p", generation: 1)
    scope.loadingOffset = 0
    scope.fail("boom")
    #expect(scope.cells == [.loadMore] && scope.error == "boom" && !scope.isLoading)
  }
}

@Suite struct SelectionTests {
  private func picked(_ name: String, source: String = "files") -> PickedPhoto {
    PickedPhoto(
      key: SelectionKey(sourceID: source, itemID: name), title: Array(name.utf8), outputPath: PathBytes("/p/" + name))
  }

  @Test func keepsPickOrderAndRemoves() {
    var selection = Selection()
    let insertedC = selection.insert(picked("c"))
    let insertedA = selection.insert(picked("a"))
    let insertedCAgain = selection.insert(picked("c"))
    #expect(insertedC && insertedA && !insertedCAgain)
    selection.insert(picked("b"))
    let removed = selection.remove(SelectionKey(sourceID: "files", itemID: "a"))
    #expect(removed)
    #expect(selection.outputPaths.map(\.lossyString) == ["/p/c", "/p/b"])
    #expect(!selection.contains(SelectionKey(sourceID: "files", itemID: "a")))
  }

  @Test func sameIdInTwoSourcesIsTwoPhotosButOnePath() {
    var selection = Selection()
    selection.insert(picked("a", source: "one"))
    selection.insert(picked("a", source: "two"))
    #expect(selection.count == 2)
    #expect(selection.outputPaths.count == 1)
  }

  @Test func limits() {
    let limits = SelectionLimits(maximum: 2, minimum: 2)
    #expect(limits.refusalToAdd(count: 1) == nil)
    #expect(limits.refusalToAdd(count: 2) == "At most 2 photos can be picked (--max 2)")
    #expect(limits.refusalToConfirm(count: 1) == "Pick at least 2 photos (--min 2); 1 picked")
    #expect(limits.refusalToConfirm(count: 2) == nil)
  }
}
