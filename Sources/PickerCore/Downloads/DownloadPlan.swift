/// What confirming asks to fetch: every output in selection order (local
/// ones pass through), with the titles that name the downloaded files.
public struct DownloadPlan: Hashable, Sendable {
  /// Tags progress and results, so those of a cancelled download are dropped.
  public var id: Int
  public var outputs: [PickedOutput]
  public var titles: [[UInt8]]

  public init(id: Int, outputs: [PickedOutput], titles: [[UInt8]]) {
    self.id = id
    self.outputs = outputs
    self.titles = titles
  }

  public var remoteCount: Int {
    outputs.filter { if case .remote = $0 { true } else { false } }.count
  }
}

/// How far a download has come, for the progress bar.
public struct DownloadProgress: Hashable, Sendable {
  public var id: Int
  /// Remote photos in the plan, and those done.
  public var files: Int
  public var finished = 0
  /// Bytes of the file on its way, and its size when known.
  public var received: Int64 = 0
  public var expected: Int64?
  /// All bytes received so far.
  public var totalReceived: Int64 = 0

  public init(id: Int, files: Int) {
    self.id = id
    self.files = files
  }

  /// 0...1: whole files, plus the part of the current one when its size is known.
  public var fraction: Double {
    guard files > 0 else { return 1 }
    var done = Double(finished)
    if let expected, expected > 0, finished < files { done += min(1, Double(received) / Double(expected)) }
    return min(1, done / Double(files))
  }
}

/// Why a download stopped; when the source asked to sign in again, which
/// source and its form, so the picker can show it.
public struct DownloadFailure: Error, Hashable, Sendable {
  public var message: String
  public var sourceID: String?
  public var signIn: AuthPrompt?

  public init(message: String, sourceID: String? = nil, signIn: AuthPrompt? = nil) {
    self.message = message
    self.sourceID = sourceID
    self.signIn = signIn
  }
}
