import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct NaturalOrderTests {
  private func sorted(_ names: [String]) -> [String] {
    names.map { Array($0.utf8) }.sorted(by: NaturalOrder.precedes).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func numbersCompareByValue() {
    #expect(
      sorted(["IMG_10.jpg", "IMG_2.jpg", "IMG_1.jpg", "IMG_100.jpg"])
        == ["IMG_1.jpg", "IMG_2.jpg", "IMG_10.jpg", "IMG_100.jpg"])
  }

  @Test func caseIsFoldedButStable() {
    #expect(sorted(["b.jpg", "A.jpg", "a.jpg", "B.jpg"]) == ["A.jpg", "a.jpg", "B.jpg", "b.jpg"])
  }

  @Test func leadingZerosOnlyBreakTies() {
    #expect(sorted(["x2", "x02", "x1", "x003"]) == ["x1", "x02", "x2", "x003"])
    #expect(NaturalOrder.compare(Array("x007".utf8), Array("x7".utf8)) == -1)
  }

  @Test func digitsSortAmongOtherCharactersWhereTheyWould() {
    #expect(sorted(["a:", "a1", "a/", "a 1"]) == ["a 1", "a/", "a1", "a:"])
  }

  @Test func packedSortAgreesWithCompare() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("aB0129_.-x Z".utf8)
    let names: [[UInt8]] = (0..<400).map { _ in
      (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
    }
    let groups = names.map { _ in UInt8.random(in: 0...1, using: &generator) }
    let order = NaturalOrder.sortedIndices(of: names, groups: groups)
    for (a, b) in zip(order, order.dropFirst()) {
      if groups[a] != groups[b] {
        #expect(groups[a] < groups[b])
      } else {
        #expect(NaturalOrder.compare(names[a], names[b]) <= 0, "\(names[a]) before \(names[b])")
      }
    }
  }

  @Test func prefixSortsFirst() {
    #expect(sorted(["photo1", "photo", "photo 1"]) == ["photo", "photo 1", "photo1"])
  }

  @Test func hugeNumbersDoNotOverflow() {
    #expect(
      sorted(["a99999999999999999999999", "a100000000000000000000000", "a5"])
        == ["a5", "a99999999999999999999999", "a100000000000000000000000"])
  }

  @Test func equalNamesCompareEqual() {
    #expect(NaturalOrder.compare(Array("IMG_1.jpg".utf8), Array("IMG_1.jpg".utf8)) == 0)
  }
}
