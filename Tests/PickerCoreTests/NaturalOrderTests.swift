import Testing

@testable import PickerCore

@Suite struct NaturalOrderTests {
  private func sorted(_ names: [String]) -> [String] {
    names.map { Array($0.utf8) }.sorted(by: NaturalOrder.precedes).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func numbersCompareByValue() {
    #expect(sorted(["IMG_10.jpg", "IMG_2.jpg", "IMG_1.jpg", "IMG_100.jpg"])
      == ["IMG_1.jpg", "IMG_2.jpg", "IMG_10.jpg", "IMG_100.jpg"])
  }

  @Test func caseIsFoldedButStable() {
    #expect(sorted(["b.jpg", "A.jpg", "a.jpg", "B.jpg"]) == ["A.jpg", "a.jpg", "B.jpg", "b.jpg"])
  }

  @Test func leadingZerosOnlyBreakTies() {
    #expect(sorted(["x02", "x2", "x1", "x003"]) == ["x1", "x2", "x02", "x003"])
    #expect(NaturalOrder.compare(Array("x007".utf8), Array("x7".utf8)) == 1)
  }

  @Test func prefixSortsFirst() {
    #expect(sorted(["photo1", "photo", "photo 1"]) == ["photo", "photo 1", "photo1"])
  }

  @Test func hugeNumbersDoNotOverflow() {
    #expect(sorted(["a99999999999999999999999", "a100000000000000000000000", "a5"])
      == ["a5", "a99999999999999999999999", "a100000000000000000000000"])
  }

  @Test func equalNamesCompareEqual() {
    #expect(NaturalOrder.compare(Array("IMG_1.jpg".utf8), Array("IMG_1.jpg".utf8)) == 0)
  }
}
