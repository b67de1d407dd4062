extension AppState {
  /// Shows the sign-in form of a source that waits for one.
  mutating func openSignIn(for index: Int) {
    guard let prompt = signInNeeded[index] else { return }
    if top(SignInMode.self)?.form.sourceIndex == index { return }
    enter(SignInMode(SignInForm(sourceIndex: index, prompt: prompt)))
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
    if load.sourceIndex == activeSource, isOnGrid || top(TrayMode.self) != nil {
      openSignIn(for: load.sourceIndex)
    }
    return []
  }

  /// Signed in: the form closes and what failed for want of it loads again.
  /// Refused: the form stays with the reason, secret fields emptied.
  mutating func finishSignIn(sourceIndex index: Int, error: String?) -> [Effect] {
    guard sources.indices.contains(index) else { return [] }
    if let error {
      changeTop(SignInMode.self) { mode in
        guard mode.form.sourceIndex == index else { return }
        mode.form.isSubmitting = false
        mode.form.error = error
        let fields = mode.form.prompt.fields
        for field in fields.indices where fields[field].isSecret { mode.form.values[field] = "" }
        mode.form.focus = fields.firstIndex(where: \.isSecret) ?? 0
      }
      return []
    }
    signInNeeded[index] = nil
    if top(SignInMode.self)?.form.sourceIndex == index {
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
