/// The photos named on the command line or read from stdin, in the order
/// given (never re-sorted; a repeated path is listed once). A path that does
/// not exist stays listed, marked missing, and cannot be picked.
public final class GivenPathsSource: PhotoSource {
  public let id = "preselected"
  public let title: String
  public var icon: String { "✓" }
  public var capabilities: SourceCapabilities { [.paging] }
  public var rootLabel: String { "Given paths" }
  private let stream: PathStream

  public init(stream: PathStream, title: String = "Picked") {
    self.stream = stream
    self.title = title
  }

  /// Folders left out of a list read from stdin (they are not photos).
  public var skippedFolders: Int { stream.skippedFolders }

  public convenience init(paths: [PathBytes], title: String = "Picked") {
    self.init(stream: PathStream(paths: paths, finished: true), title: title)
  }

  public func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    let slice = await stream.slice(offset: page.offset, limit: page.limit)
    // Existence is checked per page, so a long list costs nothing up front.
    let items = slice.paths.map { path in
      let exists = DirectoryReader.fileKind(path) == .file
      var item = PhotoItem(
        id: IdentifierCoding.encode(path.bytes), kind: .photo, title: path.lastComponent,
        thumbnail: exists ? .file(path) : nil, original: .file(path), outputPath: path,
        isMissing: !exists)
      if PhotoFileTypes.isVideo(name: path.lastComponent) {
        item.isVideo = true
        if exists { item.videoSeconds = FolderSource.videoSeconds(path) }
      }
      return item
    }
    var result = Page(items: items, hasMore: slice.hasMore, total: slice.total)
    let skipped = stream.skippedFolders
    if skipped > 0 {
      result.note = "\(skipped) \(skipped == 1 ? "folder" : "folders") in the list skipped: only files are offered"
    }
    return result
  }
}

/// The former name, kept for programs that embed the picker.
@available(*, deprecated, renamed: "GivenPathsSource")
public typealias PreselectedSource = GivenPathsSource
