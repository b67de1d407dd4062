/// The sign-in form, a box over the grid:
///
///     ╭─ Sign in to Stock ───────────────────╮
///     │ Token     ••••••█                    │
///     │ ⚠ the token was refused              │
///     │ Enter sign in · Tab next · Esc back  │
///     ╰──────────────────────────────────────╯
enum SignInView {
  static func draw(_ form: SignInForm, state: AppState, theme: Theme, into screen: inout Screen) {
    let title = " Sign in to \(Sanitizer.sanitize(Array(state.sources[form.sourceIndex].title.utf8))) "
    let labels = form.prompt.fields.map { Sanitizer.sanitize(Array($0.label.utf8)) }
    let labelWidth = labels.map(DisplayWidth.of).max() ?? 0
    let hint = form.isSubmitting ? "Signing in…" : state.options.keys[SignInMode.self].hintLine
    let width = min(screen.width - 2, max(56, DisplayWidth.of(title) + 4))
    let height = form.prompt.fields.count + 5
    let left = (screen.width - width) / 2
    let top = max(0, (screen.height - height) / 2)
    screen.drawBox(title: title, x: left, y: top, width: width, height: height, theme: theme)
    let fieldX = left + 2 + labelWidth + 2
    let fieldWidth = width - (fieldX - left) - 2
    for (index, label) in labels.enumerated() {
      let y = top + 1 + index
      screen.put(label, x: left + 2, y: y, style: index == form.focus ? theme.keyLabel : theme.text)
      // The end of a long value stays visible, as in a shell prompt.
      let value = DisplayWidth.truncateLeading(Sanitizer.sanitize(Array(form.shown(index).utf8)), to: fieldWidth - 1)
      let end = fieldX + screen.put(value, x: fieldX, y: y, style: theme.text)
      if index == form.focus && !form.isSubmitting { screen.put("█", x: end, y: y, style: theme.text) }
    }
    let errorY = top + 1 + form.prompt.fields.count + 1
    if let error = form.error {
      screen.put(
        DisplayWidth.truncate("⚠ " + Sanitizer.sanitize(Array(error.utf8)), to: width - 4), x: left + 2, y: errorY,
        style: theme.error)
    }
    screen.put(DisplayWidth.truncate(hint, to: width - 4), x: left + 2, y: errorY + 1, style: theme.muted)
  }
}
