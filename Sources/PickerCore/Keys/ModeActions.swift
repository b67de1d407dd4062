/// What a key does in the picked tray.
public enum TrayAction: String, CaseIterable, KeyCommand {
  case previous, next, first, last, remove, back, confirm, cancel
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

/// What a key does in a one-line prompt (search, go to date); other
/// characters are typed.
public enum PromptAction: String, CaseIterable, KeyCommand {
  case close, cancel, clear, deleteBackward = "delete-backward", submit
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

/// What a key does in the full-screen preview.
public enum PreviewAction: String, CaseIterable, KeyCommand {
  case previous, next, toggle, activate, facts, back, cancel
  /// The loupe: zoom, and pan a third of the view or (`page-*`) a whole one.
  case zoomIn = "zoom-in", zoomOut = "zoom-out", actualSize = "actual-size", fit
  case panUp = "pan-up", panDown = "pan-down", pageLeft = "page-left", pageRight = "page-right"
  case pageUp = "page-up", pageDown = "page-down"
  /// The next or previous photo whether zoomed or not (at fit, ← → too).
  case nextPhoto = "next-photo", previousPhoto = "previous-photo"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

/// What a key does in the compare: the active pane, picks, paging, and the
/// loupe's zoom and pan, shared by every pane.
public enum CompareAction: String, CaseIterable, KeyCommand {
  case nextPane = "next-pane", previousPane = "previous-pane", toggle, drop, activate
  case nextPage = "next-page", previousPage = "previous-page"
  case zoomIn = "zoom-in", zoomOut = "zoom-out", actualSize = "actual-size", fit
  case panLeft = "pan-left", panRight = "pan-right", panUp = "pan-up", panDown = "pan-down"
  case back, cancel
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

/// What a key does in a sign-in form; other characters are typed.
public enum FormAction: String, CaseIterable, KeyCommand {
  case back, cancel, nextField = "next-field", previousField = "previous-field", deleteBackward = "delete-backward"
  case clear, submit
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

/// What a key does on the help screen (scrolling where it does not fit);
/// any other key closes it.
public enum HelpAction: String, CaseIterable, KeyCommand {
  case cancel
  case scrollUp = "scroll-up", scrollDown = "scroll-down", pageUp = "page-up", pageDown = "page-down"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

/// What a key does while picks download; other keys wait.
public enum DownloadAction: String, CaseIterable, KeyCommand {
  case cancelDownload = "cancel-download"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}

/// What a key does while only "Terminal too small" is shown: nothing that
/// would act on photos the user cannot see.
public enum TooSmallAction: String, CaseIterable, KeyCommand {
  case cancel, help
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
