import PickerCore

/// Carries out effects that need I/O, off the main thread, and posts their
/// results back to the inbox.
struct EffectRunner: Sendable {
  let sources: [any PhotoSource]
  let inbox: Inbox

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
}
