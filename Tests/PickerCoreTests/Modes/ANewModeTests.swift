import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A mode written outside the picker's own files: a counter on the bottom
/// line. It needs nothing but its type: the stack hands it the keys, its
/// key map is found by its type, it draws where it says, Esc (its `back`)
/// leaves it, and whatever it asks for comes out of `update`.
struct CounterMode: ModeModel {
  var count = 0

  enum Action: String, CaseIterable, KeyCommand {
    case up, back, done
    var name: String { rawValue }
    static var bindable: [Self] { allCases }
  }

  static let name = "counter"
  static let standardKeys = KeyMap<Action>(
    title: "counter",
    bindings: [
      .init([.char("+")], .up, help: "count", hint: "count"),
      .init([.enter], .done, help: "pick what is picked", hint: "done"),
      .init([.escape], .back, help: "back", hint: "back"),
    ])

  mutating func update(key: Key, action: Action?, app: AppState) -> ModeStep {
    switch action {
    case .up?: count += 1
    case .back?: return .leave
    case .done?: return .leave([.confirm])
    case nil: return .run([.notice(Notice("counter: + counts"))])
    }
    return .stay
  }

  var placement: ModePlacement { .bottomLine }

  func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    FooterView.drawHints("Counted \(count)", theme: theme, y: screen.height - 1, into: &screen)
  }
}

@Suite struct ANewModeTests {
  @Test func aModeOfItsOwnGetsKeysDrawsAndLeavesWithEsc() {
    var state = EscapeGoesBackTests.started()
    state.press(.right, .char(" "))
    state.enter(CounterMode())
    state.press(.char("+"), .char("+"), .char("j"))
    #expect(state.top(CounterMode.self)?.count == 2, "j is not the counter's: the grid below does not move")
    #expect(state.notice?.text == "counter: + counts")
    #expect(state.focusedTitle == "IMG_1.jpg")
    state.press(.char("+"))
    #expect(AppView.render(state, theme: .monochrome).line(state.size.height - 1).hasPrefix("Counted 3"))
    #expect(state.press(.escape).outcome == nil)
    #expect(state.isOnGrid && state.selection.count == 1)
  }

  @Test func whatItAsksForComesOutOfUpdate() {
    var state = EscapeGoesBackTests.started()
    state.press(.right, .char(" "))
    state.enter(CounterMode())
    #expect(state.press(.enter).outcome == .picked([PathBytes("/p/IMG_1.jpg")]))
  }

  @Test func theConfigRebindsItsKeysByItsType() {
    var state = EscapeGoesBackTests.started()
    state.options.keys[CounterMode.self].rebind(.up, to: [.char("u")])
    state.enter(CounterMode())
    state.press(.char("u"), .char("+"))
    #expect(state.top(CounterMode.self)?.count == 1)
  }
}
