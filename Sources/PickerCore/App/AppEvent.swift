/// Everything that can happen to the UI.
public enum AppEvent: Hashable, Sendable {
  case start
  case key(Key)
  case mouse(MouseEvent)
  case resize(TerminalSize)
  case pageLoaded(PageLoad, Page)
  case pageFailed(PageLoad, String)
  /// The source needs the user to sign in (again) before it can list.
  case pageNeedsSignIn(PageLoad, String, AuthPrompt)
  case signedOut(sourceIndex: Int)
  /// What a source can do changed (a command source said so when it started).
  case sourceUpdated(sourceIndex: Int, SourceSummary)
  /// A report of a mode's task (`Effect.modeTask`), for that mode.
  case modeMessage(modeID: Int, AnyHashableSendable)
  case thumbnailLoaded(ImageRequest.Key, ThumbnailResult)
  /// A source said something unasked: its status, or that it changed.
  case sourceChanged(sourceIndex: Int, SourceChange)
  /// What was read of a photo for the preview's facts panel.
  case factsLoaded(ImageReference, PhotoFacts)
  /// A photo's sharpness (`PhotoSignature.sharpness`); nil when unreadable.
  case sharpnessScored(ImageReference, Double?)
  /// Bytes of a remote picture received so far, and expected when known.
  case thumbnailProgress(ImageRequest.Key, received: Int64, expected: Int64?)
  /// The files of a confirm were checked; these no longer exist.
  case pickedChecked(PickCheck, missing: Set<PathBytes>, notFiles: Set<PathBytes> = [])
  /// A verdict's XMP was written, or could not be (why, for the user).
  case cullingWritten(CullingWrite, problem: String?)
}
