/// Work `update` asks the event loop to do.
public enum Effect: Hashable, Sendable {
  case load(PageLoad)
  /// Sign in to a source with the form's answers.
  case signIn(sourceIndex: Int, answers: [String: String])
  /// Forget a source's credentials.
  case signOut(sourceIndex: Int)
  /// Fetch the remote picks, then report their local paths.
  case download(DownloadPlan)
  case cancelDownload
  /// Read a photo's facts (size, format, EXIF) for the preview.
  case readFacts(ImageReference)
  /// Score a photo's sharpness (compare shows it), from a small decode.
  case scoreSharpness(ImageReference)
  /// Ask a source to look for changes by itself (Photos rescans its roots).
  case refresh(sourceIndex: Int)
  /// See which of the local files about to be printed still exist.
  case checkPicked(PickCheck)
  case finish(Outcome)
}
