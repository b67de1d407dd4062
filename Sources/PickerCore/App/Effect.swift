/// Work `update` asks the event loop to do.
public enum Effect: Hashable, Sendable {
  case load(PageLoad)
  /// Forget a source's credentials.
  case signOut(sourceIndex: Int)
  /// A mode's work (a download, a sign-in), its reports posted back as
  /// `AppEvent.modeMessage` to the mode with this id.
  case modeTask(modeID: Int, ModeTask)
  /// The mode left: its tasks may stop (a download is cancelled).
  case stopModeTasks(modeID: Int)
  /// Read a photo's facts (size, format, EXIF) for the preview; `placed`
  /// is the date to say instead of the file's own (`ModeIntent.readFacts`).
  case readFacts(ImageReference, placed: TakenDate? = nil)
  /// Score a photo's sharpness (compare shows it), from a small decode.
  case scoreSharpness(ImageReference)
  /// Ask a source to look for changes by itself (Photos rescans its roots).
  case refresh(sourceIndex: Int)
  /// See which of the local files about to be printed still exist.
  case checkPicked(PickCheck)
  /// A verdict kept by every source at once and written as XMP in the
  /// background, in order (`XMPWriter`).
  case cull(CullingWrite)
  case finish(Outcome)
}
