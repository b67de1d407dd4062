import PickerCore

/// Carries out effects that need I/O, off the main thread, and posts their
/// results back to the inbox. Called from the event loop's thread only.
final class EffectRunner {
  let sources: [any PhotoSource]
  let inbox: Inbox
  /// Nil when thumbnails are off.
  private let thumbnails: ThumbnailDemand?

  init(sources: [any PhotoSource], inbox: Inbox, pipeline: ImagePipeline?) {
    self.sources = sources
    self.inbox = inbox
    self.thumbnails = pipeline.map(ThumbnailDemand.init)
  }

  func load(_ load: PageLoad) {
    let source = sources[load.sourceIndex]
    let inbox = inbox
    Task.detached {
      do {
        let page: Page
        switch load.scope {
        case .root: page = try await source.items(in: nil, page: load.request)
        case .folder(let id): page = try await source.items(in: id, page: load.request)
        case .search(let query, let folder): page = try await source.search(query, in: folder, page: load.request)
        }
        inbox.post(.pageLoaded(load, page))
      } catch {
        inbox.post(.pageFailed(load, String(describing: error)))
      }
    }
  }

  /// Hands the wish list to the pipeline. Thumbnails already in memory come
  /// back at once, as events to apply before the next frame is drawn.
  func want(_ requests: [ImageRequest]) -> [AppEvent] {
    guard let thumbnails else { return [] }
    let inbox = inbox
    let ready = thumbnails.want(requests) { key, result in inbox.post(.thumbnailLoaded(key, result)) }
    return ready.map { .thumbnailLoaded($0.0, .success($0.1)) }
  }
}
