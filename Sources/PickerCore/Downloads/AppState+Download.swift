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
    // The download is the mode's task: it starts once the mode is open.
    enter(DownloadMode(DownloadPlan(id: grid.takeGeneration(), outputs: outputs, titles: titles)))
    return []
  }
}
