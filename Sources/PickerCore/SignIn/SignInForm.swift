/// The sign-in form over the grid: the fields a source asks for, what has
/// been typed, and the error of the last attempt.
public struct SignInForm: Hashable, Sendable {
  public var sourceIndex: Int
  public var prompt: AuthPrompt
  public var values: [String]
  /// The field being typed in.
  public var focus = 0
  public var error: String?
  /// An attempt is on its way; typing waits for its answer.
  public var isSubmitting = false

  public init(sourceIndex: Int, prompt: AuthPrompt) {
    self.sourceIndex = sourceIndex
    self.prompt = prompt
    self.values = Array(repeating: "", count: prompt.fields.count)
  }

  public var answers: [String: String] {
    Dictionary(zip(prompt.fields.map(\.name), values), uniquingKeysWith: { $1 })
  }

  /// What a field shows: secret ones as one dot per character.
  public func shown(_ index: Int) -> String {
    prompt.fields[index].isSecret ? String(repeating: "•", count: values[index].count) : values[index]
  }
}
