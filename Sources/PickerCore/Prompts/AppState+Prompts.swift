/// The grid's two prompts, search (`/`) and go to date (`:`), opened where
/// they can answer.
extension AppState {
  mutating func openSearchPrompt() {
    guard sources[grid.activeSource].capabilities.contains(.search) else {
      notice = Notice("\(sources[grid.activeSource].title) cannot search")
      return
    }
    enter(SearchPrompt(startingResults: scope.flatMap { SearchPrompt.query(of: $0) != nil ? $0 : nil }))
  }

  /// Go to date lands on days: Photos, and folders sorted by date taken.
  mutating func openGoToDate() {
    guard scope?.groupsByDay == true else {
      notice = Notice("Go to date works in Photos and in folders sorted by date taken (s)")
      return
    }
    enter(DatePrompt())
  }
}
