extension AppState {
  /// Shows the sign-in form of a source that waits for one.
  mutating func openSignIn(for index: Int) {
    guard let prompt = signInNeeded[index] else { return }
    if case .signIn(let form) = mode, form.sourceIndex == index { return }
    enter(.signIn(SignInForm(sourceIndex: index, prompt: prompt)))
  }

  /// A page could not load until the user signs in: the scope keeps the
  /// reason, the bar marks the source, and the form opens if the user is
  /// looking at that source (never over another source, help or search).
  mutating func receiveSignInNeeded(_ message: String, prompt: AuthPrompt, for load: PageLoad) -> [Effect] {
    guard scopeStacks.indices.contains(load.sourceIndex),
      let depth = scopeStacks[load.sourceIndex].firstIndex(where: { $0.generation == load.generation })
    else { return [] }
    scopeStacks[load.sourceIndex][depth].fail(message)
    signInNeeded[load.sourceIndex] = prompt
    if load.sourceIndex == activeSource, mode == .grid || isInTray {
      openSignIn(for: load.sourceIndex)
    }
    return []
  }

  private var isInTray: Bool {
    if case .tray = mode { return true }
    return false
  }

  mutating func handleSignIn(_ key: Key, form: SignInForm) -> [Effect] {
    var form = form
    let action = options.keys.signIn.action(for: key)
    switch action {
    case .back?:
      leaveMode()
      notice = Notice("\(sources[form.sourceIndex].title) needs you to sign in: Enter on it opens the form again")
      return []
    case .cancel?:
      return [.finish(.cancelled)]
    case _ where form.isSubmitting:
      return []
    case .nextField?:
      form.focus = (form.focus + 1) % max(1, form.values.count)
    case .previousField?:
      form.focus = (form.focus + max(1, form.values.count) - 1) % max(1, form.values.count)
    case .deleteBackward?:
      if form.values.indices.contains(form.focus) {
        form.values[form.focus] = String(form.values[form.focus].dropLast())
      }
    case .clear?:
      if form.values.indices.contains(form.focus) { form.values[form.focus] = "" }
    case nil:
      guard case .char(let c) = key else { return [] }
      if form.values.indices.contains(form.focus) { form.values[form.focus].append(c) }
    case .submit?:
      if form.focus < form.values.count - 1 {
        form.focus += 1
      } else {
        form.isSubmitting = true
        form.error = nil
        mode = .signIn(form)
        return [.signIn(sourceIndex: form.sourceIndex, answers: form.answers)]
      }
    }
    mode = .signIn(form)
    return []
  }

  /// Signed in: the form closes and what failed for want of it loads again.
  /// Refused: the form stays with the reason, secret fields emptied.
  mutating func finishSignIn(sourceIndex index: Int, error: String?) -> [Effect] {
    guard sources.indices.contains(index) else { return [] }
    if let error {
      if case .signIn(var form) = mode, form.sourceIndex == index {
        form.isSubmitting = false
        form.error = error
        for field in form.prompt.fields.indices where form.prompt.fields[field].isSecret { form.values[field] = "" }
        form.focus = form.prompt.fields.firstIndex(where: \.isSecret) ?? 0
        mode = .signIn(form)
      }
      return []
    }
    signInNeeded[index] = nil
    if case .signIn(let form) = mode, form.sourceIndex == index {
      leaveMode()
      notice = Notice("Signed in to \(sources[index].title)")
    }
    return retryAfterSignIn(sourceIndex: index)
  }

  /// The scope on top of the source's stack loads again if it failed.
  private mutating func retryAfterSignIn(sourceIndex index: Int) -> [Effect] {
    guard var top = scopeStacks[index].last else { return [] }
    guard top.error != nil || !top.hasLoadedOnce else { return [] }
    top.error = nil
    scopeStacks[index][scopeStacks[index].count - 1] = top
    return top.isLoading ? [] : loadNextPage(sourceIndex: index)
  }

  /// `O`: forget the credentials of the source on screen. Its pages are
  /// dropped; the selection stays.
  mutating func signOut() -> [Effect] {
    guard sources[activeSource].capabilities.contains(.auth) else {
      notice = Notice("\(sources[activeSource].title) has no sign-in")
      return []
    }
    let root = makeScope(.root, label: sources[activeSource].rootLabel, of: activeSource)
    scopeStacks[activeSource] = [root]
    notice = Notice("Signing out of \(sources[activeSource].title)…")
    return [.signOut(sourceIndex: activeSource)]
  }

  /// Signed out: the root loads again, and the source asks for the form.
  mutating func receiveSignedOut(sourceIndex index: Int) -> [Effect] {
    guard scopeStacks.indices.contains(index), scopeStacks[index].count == 1 else { return [] }
    if index == activeSource { notice = Notice("Signed out of \(sources[index].title)") }
    return loadNextPage(sourceIndex: index)
  }
}
