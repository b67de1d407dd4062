/// Confirmed with remote picks: they download with the UI still up, a bar
/// on the bottom line; Esc stops the download and keeps the picks. The
/// transfer is this mode's task: its progress, paths or failure come back
/// here as messages, and leaving stops it.
public struct DownloadMode: ModeModel {
  public let plan: DownloadPlan
  public var progress: DownloadProgress
  /// The task is asked for once, after the mode opens.
  var started = false

  public init(_ plan: DownloadPlan) {
    self.plan = plan
    progress = DownloadProgress(id: plan.id, files: plan.remoteCount)
  }

  public enum Message: Hashable, Sendable {
    case progress(DownloadProgress)
    /// Every output's local path (or URL), in selection order.
    case finished([PathBytes])
    case failed(DownloadFailure)
  }

  public static let name = "downloading"
  /// Esc and Ctrl-C stop the download; the picks stay.
  public static let backAction: DownloadAction? = .cancelDownload
  public static let cancelAction: DownloadAction? = .cancelDownload
  public static let carriesConfirmOut = true
  public static let standardKeys = KeyMap<DownloadAction>(
    title: "downloading",
    bindings: [
      .init([.char("q")], .cancelDownload, help: "stop the download, keep the picks")
    ])

  /// Its one key is said on its own line.
  public static func helpRows(_ keys: KeyMaps) -> [(keys: String, help: String)] { [] }

  public mutating func afterEvent(app: AppState) -> ModeStep {
    guard !started else { return .stay }
    started = true
    return .run([.run(Self.transfer(plan))])
  }

  /// Other keys wait. Leaving stops the transfer (`ModeTaskContext.isStopped`).
  public mutating func update(key: Key, action: DownloadAction?, app: AppState) -> ModeStep {
    guard action == .cancelDownload else { return .stay }
    return .leave([.notice(Notice("Download cancelled; the selection is kept"))])
  }

  public mutating func receive(_ message: Message, app: AppState) -> ModeStep {
    switch message {
    case .progress(let progress):
      self.progress = progress
      return .stay
    case .finished(let paths):
      return .run([.finish(.picked(paths))])
    case .failed(let failure):
      // The UI stays, with the selection and the reason; a source that asks
      // to sign in again shows its form, and Enter afterwards downloads anew.
      if let prompt = failure.signIn, let sourceID = failure.sourceID {
        return .leave([.needsSignIn(sourceID: sourceID, prompt: prompt, error: failure.message)])
      }
      return .leave([.notice(Notice("Download failed: \(failure.message) (the selection is kept)", isError: true))])
    }
  }

  /// The transfer, on a thread of its own (blocking reads).
  static func transfer(_ plan: DownloadPlan) -> ModeTask {
    ModeTask(plan) { context in
      do throws(DownloadFailure) {
        let paths = try context.downloader.run(
          plan, progress: { context.send(Message.progress($0)) }, isCancelled: context.isStopped)
        if context.isStopped() {
          // Stopped as it finished: nobody will print these paths.
          context.downloader.remove(paths, of: plan)
          return
        }
        context.send(Message.finished(paths))
      } catch {
        context.send(Message.failed(error))
      }
    }
  }

  public var placement: ModePlacement { .bottomLine }

  public func draw(app: AppState, theme: Theme, into screen: inout Screen) {
    let y = screen.height - 1
    screen.fill(x: 0, y: y, width: screen.width, height: 1, style: .plain)
    FooterView.drawProgress(progress, theme: theme, y: y, into: &screen)
  }
}

/// What a key does while picks download; other keys wait.
public enum DownloadAction: String, CaseIterable, KeyCommand {
  case cancelDownload = "cancel-download"
  public var name: String { rawValue }
  public static var bindable: [Self] { allCases }
}
