import Foundation
import Testing

@testable import PickerCore

@Suite struct BoundedChildTests {
  @Test func aChildThatAnswersGivesItsOutput() {
    let data = BoundedChild.output(of: ["printf", "on"], seconds: 5)
    #expect(data.map { String(decoding: $0, as: UTF8.self) } == "on")
    #expect(BoundedChild.output(of: ["false"], seconds: 5) == nil)
  }

  @Test func aChildThatHangsIsEndedAtTheBound() {
    let started = Date()
    #expect(BoundedChild.output(of: ["sleep", "30"], seconds: 0.3) == nil)
    #expect(Date().timeIntervalSince(started) < 5)
  }
}
