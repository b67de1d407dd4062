extension AppState {
  /// Shows the sign-in form of a source that waits for one.
  mutating func openSignIn(for index: Int) {
    guard let prompt = sources[index].signInNeeded else { return }
    if top(SignInMode.self)?.form.sourceIndex == index { return }
    enter(SignInMode(SignInForm(sourceIndex: index, prompt: prompt)))
  }

  /// A page could not load until the user signs in: the scope keeps the
  /// reason, the bar marks the source, and the form opens if the user is
  /// looking at that source (never over another source, help or search).
  mutating func receiveSignInNeeded(_ message: String, prompt: AuthPrompt, for load: PageLoad) -> [Effect] {
    guard grid.scopeStacks.indices.contains(load.sourceIndex),
      let depth = grid.scopeStacks[load.sourceIndex].firstIndex(where: { $0.generation == load.generation })
    else { return [] }
    grid.scopeStacks[load.sourceIndex][depth].fail(message)
    sources[load.sourceIndex].signInNeeded = prompt
    if load.sourceIndex == grid.activeSource, isOnGrid || topMode.map { type(of: $0).givesWayToSignIn } == true {
      openSignIn(for: load.sourceIndex)
    }
    return []
  }

  /// Signed in (the form has closed): the source's mark goes and what
  /// failed for want of it loads again.
  mutating func signedIn(sourceIndex index: Int) -> [Effect] {
    guard sources.indices.contains(index) else { return [] }
    sources[index].signInNeeded = nil
    notice = Notice("Signed in to \(sources[index].title)")
    return retryAfterSignIn(sourceIndex: index)
  }

  /// A source asked to sign in (again) while the picks downloaded: it is
  /// marked and its form opens with the reason; the selection stays.
  mutating func askSignIn(sourceID: String, prompt: AuthPrompt, error: String) {
    guard let index = sources.firstIndex(where: { $0.id == sourceID }) else {
      notice = Notice("Download failed: \(error) (the selection is kept)", isError: true)
      return
    }
    sources[index].signInNeeded = prompt
    var form = SignInForm(sourceIndex: index, prompt: prompt)
    form.error = error
    enter(SignInMode(form))
  }

  /// The scope on top of the source's stack loads again if it failed.
  private mutating func retryAfterSignIn(sourceIndex index: Int) -> [Effect] {
    guard var top = grid.scopeStacks[index].last else { return [] }
    guard top.error != nil || !top.hasLoadedOnce else { return [] }
    top.error = nil
    grid.scopeStacks[index][grid.scopeStacks[index].count - 1] = top
    return top.isLoading ? [] : loadNextPage(sourceIndex: index)
  }

  /// `O`: forget the credentials of the source on screen. Its pages are
  /// dropped; the selection stays.
  mutating func signOut() -> [Effect] {
    guard sources[grid.activeSource].capabilities.contains(.auth) else {
      notice = Notice("\(sources[grid.activeSource].title) has no sign-in")
      return []
    }
    let root = makeScope(.root, label: sources[grid.activeSource].rootLabel, of: grid.activeSource)
    grid.scopeStacks[grid.activeSource] = [root]
    notice = Notice("Signing out of \(sources[grid.activeSource].title)…")
    return [.signOut(sourceIndex: grid.activeSource)]
  }

  /// Signed out: the root loads again, and the source asks for the form.
  mutating func receiveSignedOut(sourceIndex index: Int) -> [Effect] {
    guard grid.scopeStacks.indices.contains(index), grid.scopeStacks[index].count == 1 else { return [] }
    if index == grid.activeSource { notice = Notice("Signed out of \(sources[index].title)") }
    return loadNextPage(sourceIndex: index)
  }
}
