/// A source's sign-in form, a box over the grid: Enter goes to the next
/// field, then signs in; Esc leaves it (the source stays marked, and Enter
/// on it opens the form again).
public struct SignInMode: ModeModel {
  public var form: SignInForm

  public init(_ form: SignInForm) { self.form = form }

  /// The sign-in's answer: nil error means signed in.
  public enum Message: Hashable, Sendable {
    case finished(error: String?)
  }

  public static let name = "sign-in"
  public static let backAction: FormAction? = .back
  public static let cancelAction: FormAction? = .cancel
  public static let standardKeys = KeyMap<FormAction>(
    title: "sign-in form",
    bindings: [
      .init([.enter], .submit, help: "next field, then sign in", hint: "sign in"),
      .init([.tab, .down], .nextField, help: "next field", hint: "next field"),
      .init([.backTab, .up], .previousField, help: "previous field"),
      .init([.backspace], .deleteBackward, help: "delete"),
      .init([.ctrl("u")], .clear, help: "clear"),
    ],
    otherKeys: "other keys type")

  public mutating func update(key: Key, action: FormAction?, app: AppState) -> ModeStep {
    let fields = max(1, form.values.count)
    switch action {
    case .back?:
      let title = app.sources[form.sourceIndex].title
      return .leave([.notice(Notice("\(title) needs you to sign in: Enter on it opens the form again"))])
    case .cancel?:
      return .cancel
    case _ where form.isSubmitting:
      return .stay
    case .nextField?:
      form.focus = (form.focus + 1) % fields
    case .previousField?:
      form.focus = (form.focus + fields - 1) % fields
    case .deleteBackward?:
      if form.values.indices.contains(form.focus) {
        form.values[form.focus] = String(form.values[form.focus].dropLast())
      }
    case .clear?:
      if form.values.indices.contains(form.focus) { form.values[form.focus] = "" }
    case nil:
      guard case .char(let c) = key else { return .stay }
      if form.values.indices.contains(form.focus) { form.values[form.focus].append(c) }
    case .submit?:
      guard form.focus >= form.values.count - 1 else {
        form.focus += 1
        return .stay
      }
      form.isSubmitting = true
      form.error = nil
      return .run([.run(Self.signIn(sourceIndex: form.sourceIndex, answers: form.answers))])
    }
    return .stay
  }

  /// Signed in: the form closes and what failed for want of it loads again.
  /// Refused: the form stays with the reason, secret fields emptied.
  public mutating func receive(_ message: Message, app: AppState) -> ModeStep {
    guard case .finished(let error) = message else { return .stay }
    guard let error else { return .leave([.signedIn(sourceIndex: form.sourceIndex)]) }
    form.isSubmitting = false
    form.error = error
    let fields = form.prompt.fields
    for field in fields.indices where fields[field].isSecret { form.values[field] = "" }
    form.focus = fields.firstIndex(where: \.isSecret) ?? 0
    return .stay
  }

  /// What the sign-in task is, for equality (the answers hold a secret:
  /// only the source and the field names are compared).
  public struct Attempt: Hashable, Sendable {
    public var sourceIndex: Int
    public var fields: [String]
  }

  /// Asks the source with the form's answers.
  static func signIn(sourceIndex: Int, answers: [String: String]) -> ModeTask {
    ModeTask(Attempt(sourceIndex: sourceIndex, fields: answers.keys.sorted())) { context in
      let source = context.sources[sourceIndex]
      Task.detached {
        do {
          try await source.authenticate(answers)
          context.send(Message.finished(error: nil))
        } catch {
          context.send(Message.finished(error: String(describing: error)))
        }
      }
    }
  }

  public var placement: ModePlacement { .overGrid }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    SignInView.draw(form, state: app, theme: theme, into: &screen)
  }
}

/// What a key does in a sign-in form; other characters are typed.
public enum FormAction: String, CaseIterable, KeyCommand {
  case back, cancel, nextField = "next-field", previousField = "previous-field", deleteBackward = "delete-backward"
  case clear, submit
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
