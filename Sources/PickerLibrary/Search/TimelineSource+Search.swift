import Foundation

/// The timeline's search: the words typed as a filter narrowing the
/// timeline's own (`--since`, `--only`, `--min-rating`, `--label`).
extension TimelineSource {
  /// Words match names, folders, cameras and lenses; a date or a range
  /// (`2023`, `2023-06`, `jun 2023`, `2023-06-01..2023-06-14`) restricts
  /// by date taken.
  public func search(_ query: String, in folder: FolderID?, page: PageRequest) async throws -> Page {
    try await list(searchFilter(query), page: page)
  }

  /// The timeline's filter narrowed by a search's words.
  func searchFilter(_ query: String) -> LibraryFilter {
    var narrowed = filter
    let parsed = DateQuery.parseSearch(query, today: PhotoMetadataReader.latestBelievableDay() - 1)
    var words = parsed.words
    narrowed.culling = CullingFilter.extract(from: &words)
    narrowed.kinds = KindFilter.extract(from: &words).narrowed(by: filter.kinds)
    narrowed.culling.hidesRejected = narrowed.culling.hidesRejected || filter.culling.hidesRejected
    if let minimum = filter.culling.minRating {
      narrowed.culling.minRating = max(minimum, narrowed.culling.minRating ?? -1)
    }
    // Labels searched for narrow --label's: with none in common, nothing.
    if narrowed.culling.labels.isEmpty {
      narrowed.culling.labels = filter.culling.labels
    } else if !filter.culling.labels.isEmpty {
      narrowed.culling.labels.formIntersection(filter.culling.labels)
      if narrowed.culling.labels.isEmpty { narrowed.culling.minRating = 6 }
    }
    narrowed.words = words
    if let range = parsed.days {
      narrowed.firstDay = max(range.lowerBound, filter.firstDay ?? range.lowerBound)
      narrowed.lastDay = min(range.upperBound, filter.lastDay ?? range.upperBound)
    }
    return narrowed
  }
}
