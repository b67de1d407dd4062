/// The Places scope (`P`): countries with their photo counts and newest
/// photo as the cover; Enter opens a country's places the same way, and a
/// place's photos in day groups; Esc goes back up, as from any folder.
extension AppState {
  mutating func openPlaces() -> [Effect] {
    // From another tab: the first source that has places (Photos).
    guard let index = sources.indices.first(where: { sources[$0].capabilities.contains(.places) }) else {
      notice = Notice("Places are in Photos: open the picker with --timeline or on your library")
      return []
    }
    var effects: [Effect] = []
    if index != grid.activeSource { effects += switchSource(to: index) }
    // P again inside Places: back to the countries.
    let stack = grid.scopeStacks[index]
    if let first = stack.firstIndex(where: { Self.isPlaces($0.kind) }) {
      grid.scopeStacks[index].removeLast(stack.count - first - 1)
      return effects + relistIfNeeded(sourceIndex: index)
    }
    let places = makeScope(.folder(PlaceFolder.countries.id), label: "Places", sort: scope?.sort ?? .name, of: index)
    grid.scopeStacks[index].append(places)
    return effects + loadNextPage(sourceIndex: index)
  }

  static func isPlaces(_ kind: Scope.Kind) -> Bool {
    if case .folder(let id) = kind, PlaceFolder(id: id) == .countries { return true }
    return false
  }
}
