/// Where keys go.
public enum Mode: Hashable, Sendable {
  case grid
  /// The picked tray has the focus, on this entry.
  case tray(focus: Int)
  case help
  /// The search prompt, with what has been typed.
  case search(query: String)
  /// The go-to-date prompt (`:`), with what has been typed.
  case goToDate(query: String)
  /// The sign-in form of a source.
  case signIn(SignInForm)
  /// Confirmed; remote picks are being downloaded.
  case downloading(DownloadProgress)
  /// The focused photo full screen, with its facts panel or without.
  case preview(showsFacts: Bool)
  /// Photos side by side.
  case compare(CompareState)
}
