extension AppState {
  /// Says in the footer that an unfinished run's picks can come back.
  public mutating func offerResume(_ offer: ResumeOffer) {
    guard !offer.photos.isEmpty else { return }
    confirmFlow.resumeOffer = offer
    let count = offer.photos.count
    let noun = count == 1 ? "pick" : "picks"
    notice = Notice("\(count) \(noun) from a run that did not finish: R restores \(count == 1 ? "it" : "them")")
  }

  /// Adds the offered picks to the selection (after what is picked already,
  /// within --max) and says how many came back and how many could not.
  public mutating func restorePicks() {
    guard let offer = confirmFlow.resumeOffer else {
      notice = Notice("Nothing to restore: no earlier run left picks")
      return
    }
    confirmFlow.resumeOffer = nil
    var restored = 0
    var overLimit = 0
    for photo in offer.photos where !selection.contains(photo.key) {
      if options.limits.refusalToAdd(count: selection.count) != nil {
        overLimit += 1
        continue
      }
      selection.insert(photo)
      restored += 1
    }
    var text = "Restored \(restored) \(restored == 1 ? "pick" : "picks")"
    if offer.skipped > 0 { text += "; \(offer.skipped) gone or from a source not open, skipped" }
    if overLimit > 0, let maximum = options.limits.maximum { text += "; \(overLimit) over --max \(maximum) left out" }
    notice = Notice(text)
  }
}
