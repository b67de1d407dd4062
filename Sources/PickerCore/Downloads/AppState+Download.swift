extension AppState {
  /// Confirmed with remote picks: print their URLs (--print-urls), or
  /// download them first with the UI still up.
  mutating func startDownload(_ outputs: [PickedOutput], titles: [[UInt8]]) -> [Effect] {
    if options.printsURLs {
      let lines = outputs.map { output -> PathBytes in
        switch output {
        case .local(let path): return path
        case .remote(_, let url): return PathBytes(url)
        }
      }
      return [.finish(.picked(lines))]
    }
    let plan = DownloadPlan(id: takeGeneration(), outputs: outputs, titles: titles)
    enter(DownloadMode(DownloadProgress(id: plan.id, files: plan.remoteCount)))
    return [.download(plan)]
  }

  mutating func finishDownload(id: Int, paths: [PathBytes]) -> [Effect] {
    guard top(DownloadMode.self)?.progress.id == id else { return [] }
    return [.finish(.picked(paths))]
  }

  /// The UI stays, with the selection and the reason; a source that asks
  /// to sign in again shows its form, and Enter afterwards downloads anew.
  mutating func failDownload(id: Int, failure: DownloadFailure) {
    guard top(DownloadMode.self)?.progress.id == id else { return }
    leaveMode()
    if let prompt = failure.signIn, let index = sources.firstIndex(where: { $0.id == failure.sourceID }) {
      signInNeeded[index] = prompt
      var form = SignInForm(sourceIndex: index, prompt: prompt)
      form.error = failure.message
      enter(SignInMode(form))
      return
    }
    notice = Notice("Download failed: \(failure.message) (the selection is kept)", isError: true)
  }
}
