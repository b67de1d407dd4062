import Foundation

/// The key maps of every mode: the grid's and those of the modes that take
/// the keys from it. The config's `[keys]` and `[keys.MODE]` tables change
/// them (`KeyRebinding`).
public struct KeyMaps: Hashable, Sendable {
  public var grid: KeyMap<GridAction>
  public var tray: KeyMap<TrayAction>
  public var search: KeyMap<PromptAction>
  public var goToDate: KeyMap<PromptAction>
  public var preview: KeyMap<PreviewAction>
  public var compare: KeyMap<CompareAction>
  public var signIn: KeyMap<FormAction>
  public var help: KeyMap<HelpAction>
  public var downloading: KeyMap<DownloadAction>
  public var tooSmall: KeyMap<TooSmallAction>

  /// Help's lines for the modes other than the grid, each "title: keys …".
  public var modeHelpRows: [(keys: String, help: String)] {
    // The two prompts share a line while their keys are the same.
    let samePromptKeys = search.bindings.map(\.keys) == goToDate.bindings.map(\.keys)
    let prompts =
      samePromptKeys
      ? [("prompts (/ :)", search.helpLine.replacingOccurrences(of: "Enter search", with: "Enter search or go"))]
      : [(search.title, search.helpLine), (goToDate.title, goToDate.helpLine)]
    return [(tray.title, tray.helpLine)] + prompts + [
      (preview.title, preview.helpLine), (compare.title, compare.helpLine), (signIn.title, signIn.helpLine),
    ]
  }

  public static let standard = KeyMaps(
    grid: .grid,
    tray: KeyMap(
      title: "tray (t)",
      bindings: [
        .init([.left, .char("h")], .previous, help: "previous", hint: "move", hintKeys: "← →"),
        .init([.right, .char("l")], .next, help: "next"),
        .init([.home], .first, help: "first"),
        .init([.end], .last, help: "last"),
        .init(
          [.char(" "), .char("x"), .delete, .backspace], .remove, help: "remove", hint: "remove", hintKeys: "Space/x"),
        .init([.enter], .confirm, help: "pick", hint: "pick"),
        .init([.escape, .char("t"), .up, .char("k")], .back, help: "back", hint: "back to the grid"),
        .init([.char("q"), .ctrl("c")], .cancel, help: "cancel"),
      ]),
    search: prompt(title: "search (/)", submit: "search"),
    goToDate: prompt(title: "go to date (:)", submit: "go"),
    preview: KeyMap(
      title: "preview (v)",
      bindings: [
        .init(
          [.left, .char("h")], .previous, help: "previous", hint: "photo", hintKeys: "←→",
          group: "photo (zoomed: pan)"),
        .init([.right, .char("l")], .next, help: "next", group: "photo (zoomed: pan)"),
        .init([.char("p")], .previousPhoto, help: "previous", group: "photo, zoom kept"),
        .init([.char("n")], .nextPhoto, help: "next", group: "photo, zoom kept"),
        .init([.char("+"), .char("=")], .zoomIn, help: "zoom in", hint: "zoom", hintKeys: "+-", group: "zoom"),
        .init([.char("-")], .zoomOut, help: "zoom out", group: "zoom"),
        .init([.char("z")], .actualSize, help: "fit / 100%"),
        .init([.char("0")], .fit, help: "fit"),
        .init([.up, .char("k")], .panUp, help: "pan up", group: "pan"),
        .init([.down, .char("j")], .panDown, help: "pan down", group: "pan"),
        .init([.shiftLeft], .pageLeft, help: "pan a view left", group: "pan a view"),
        .init([.shiftRight], .pageRight, help: "pan a view right", group: "pan a view"),
        .init([.shiftUp], .pageUp, help: "pan a view up", group: "pan a view"),
        .init([.shiftDown], .pageDown, help: "pan a view down", group: "pan a view"),
        .init([.char(" ")], .toggle, help: "select", hint: "select"),
        .init([.enter], .activate, help: "pick", hint: "pick"),
        .init([.char("i")], .facts, help: "facts", hint: "facts"),
        .init([.escape, .char("v"), .char("q")], .back, help: "back", hint: "back"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ]),
    compare: KeyMap(
      title: "compare (c)",
      bindings: [
        .init([.tab], .nextPane, help: "next pane", hint: "pane", group: "pane"),
        .init([.backTab], .previousPane, help: "previous pane", group: "pane"),
        .init([.char(" ")], .toggle, help: "pick or unpick", hint: "pick"),
        .init([.char("x")], .drop, help: "drop from the compare", hint: "drop"),
        .init([.enter], .activate, help: "confirm", hint: "confirm"),
        .init([.pageDown, .char("]")], .nextPage, help: "next four", group: "next / previous four"),
        .init([.pageUp, .char("[")], .previousPage, help: "previous four", group: "next / previous four"),
        .init([.char("+"), .char("=")], .zoomIn, help: "zoom in", hint: "zoom", hintKeys: "+-", group: "zoom"),
        .init([.char("-")], .zoomOut, help: "zoom out", group: "zoom"),
        .init([.char("z")], .actualSize, help: "fit / 100%"),
        .init([.char("0")], .fit, help: "fit"),
        .init([.left, .char("h")], .panLeft, help: "pan left", group: "pan, all panes"),
        .init([.right, .char("l")], .panRight, help: "pan right", group: "pan, all panes"),
        .init([.up, .char("k")], .panUp, help: "pan up", group: "pan, all panes"),
        .init([.down, .char("j")], .panDown, help: "pan down", group: "pan, all panes"),
        .init([.escape, .char("c"), .char("q")], .back, help: "back", hint: "back"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ]),
    signIn: KeyMap(
      title: "sign-in form",
      bindings: [
        .init([.enter], .submit, help: "next field, then sign in", hint: "sign in"),
        .init([.tab, .down], .nextField, help: "next field", hint: "next field"),
        .init([.backTab, .up], .previousField, help: "previous field"),
        .init([.backspace], .deleteBackward, help: "delete"),
        .init([.ctrl("u")], .clear, help: "clear"),
        .init([.escape], .back, help: "back", hint: "back"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ],
      otherKeys: "other keys type"),
    help: KeyMap(
      title: "help (?)",
      bindings: [
        .init([.ctrl("c")], .cancel, help: "cancel"),
        .init([.down, .char("j")], .scrollDown, help: "scroll down", group: "scroll"),
        .init([.up, .char("k")], .scrollUp, help: "scroll up", group: "scroll"),
        .init([.pageDown, .char(" ")], .pageDown, help: "page down", group: "scroll"),
        .init([.pageUp], .pageUp, help: "page up", group: "scroll"),
      ], otherKeys: "other keys close it"),
    downloading: KeyMap(
      title: "downloading",
      bindings: [
        .init([.escape, .char("q"), .ctrl("c")], .cancelDownload, help: "stop the download, keep the picks")
      ]),
    tooSmall: KeyMap(
      title: "terminal too small",
      bindings: [
        .init([.escape, .char("q"), .ctrl("c")], .cancel, help: "cancel"),
        .init([.char("?"), .function(1)], .help, help: "help"),
      ]))

  private static func prompt(title: String, submit: String) -> KeyMap<PromptAction> {
    KeyMap(
      title: title,
      bindings: [
        .init([.enter], .submit, help: submit),
        .init([.backspace], .deleteBackward, help: "delete"),
        .init([.ctrl("u")], .clear, help: "clear"),
        .init([.escape], .close, help: "close"),
        .init([.ctrl("c")], .cancel, help: "cancel"),
      ],
      otherKeys: "other keys type")
  }
}
