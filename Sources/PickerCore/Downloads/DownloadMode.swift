/// Confirmed with remote picks: they download with the UI still up, a bar
/// on the bottom line; Esc stops the download and keeps the picks.
public struct DownloadMode: ModeModel {
  public var progress: DownloadProgress

  public init(_ progress: DownloadProgress) { self.progress = progress }

  public static let name = "downloading"
  public static let standardKeys = KeyMap<DownloadAction>(
    title: "downloading",
    bindings: [
      .init([.escape, .char("q"), .ctrl("c")], .cancelDownload, help: "stop the download, keep the picks")
    ])

  /// Its one key is said on its own line.
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] { [] }

  /// Other keys wait.
  public mutating func update(key: Key, action: DownloadAction?, app: AppState) -> ModeStep {
    guard action == .cancelDownload else { return .stay }
    return .leave([.notice(Notice("Download cancelled; the selection is kept")), .source(.cancelDownload)])
  }

  public var placement: ModePlacement { .bottomLine }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    let y = screen.height - 1
    screen.fill(x: 0, y: y, width: screen.width, height: 1, style: .plain)
    FooterView.drawProgress(progress, theme: theme, y: y, into: &screen)
  }
}

/// What a key does while picks download; other keys wait.
public enum DownloadAction: String, CaseIterable, KeyCommand {
  case cancelDownload = "cancel-download"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
