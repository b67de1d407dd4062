/// The modes the picker has, in the order help and the config list them.
/// Registering a mode here gives it a `[keys.NAME]` table and help rows.
public enum ModeRegistry {
  public static let modes: [any ModeModel.Type] = [
    TrayMode.self,
    SearchPrompt.self,
    DatePrompt.self,
    PreviewMode.self,
    CompareMode.self,
    SignInMode.self,
    HelpMode.self,
    DownloadMode.self,
    QuitConfirm.self,
  ]

  static func mode(named name: String) -> (any ModeModel.Type)? {
    modes.first { $0.name == name }
  }
}
