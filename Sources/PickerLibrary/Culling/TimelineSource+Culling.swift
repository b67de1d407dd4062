extension TimelineSource {
  /// Kept in the index at once; days counted under a verdict's filter are
  /// counted again.
  public func remember(_ culling: Culling, of path: PathBytes) async {
    // Rated in Folders, its path is as the folder was typed; the index
    // keeps folders absolute, links resolved.
    let canonical = CanonicalRoot.of(path.parentFolder).appending(path.lastComponent)
    try? index.remember(culling, of: canonical)
    lock.withLock { dayCache = dayCache.filter { $0.key.culling.isEmpty } }
    rememberInCatalog(culling, of: canonical)
  }
}
