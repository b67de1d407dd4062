import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct BoundedChildTests {
  @Test func aChildThatAnswersGivesItsOutput() {
    let data = BoundedChild.output(of: ["printf", "on"], seconds: 5)
    #expect(data.map { String(decoding: $0, as: UTF8.self) } == "on")
    #expect(BoundedChild.output(of: ["false"], seconds: 5) == nil)
  }

  @Test func aChildThatHangsIsEndedAtTheBound() {
    let started = Date()
    #expect(BoundedChild.output(of: ["sleep", "60"], seconds: 0.3) == nil)
    // Well under the child's 60 s means the bound ended it; loose, for a
    // loaded machine.
    #expect(Date().timeIntervalSince(started) < 30)
  }
}
