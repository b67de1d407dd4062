/// What a key does while only "Terminal too small" is shown: nothing that
/// would act on photos the user cannot see. (Each mode's actions are in
/// its own file, beside its model.)
public enum TooSmallAction: String, CaseIterable, KeyCommand {
  case cancel, help
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
