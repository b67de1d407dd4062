/// Names positions the way this user wants them: the table's places
/// (`PlaceFinder`) with the config's corrections (`PlaceCorrections`) over
/// them. What it gives the index is a key per position, so a correction
/// changed later renames the photos without reading their files.
public struct PlaceNamer: Sendable {
  public let finder: PlaceFinder
  public let corrections: PlaceCorrections
  /// Keys from here on are the config's named areas, in its order.
  public static let areaKeys = 2_000_000
  /// How far a rename's target is looked for around the place renamed.
  static let renameReach = 100.0

  public init(finder: PlaceFinder, corrections: PlaceCorrections = PlaceCorrections()) {
    self.finder = finder
    self.corrections = corrections
  }

  /// The place a position is in: the nearest named area holding it, else
  /// the table's place (`PlaceFinder.key`); nil where none is near.
  public func key(latitude: Double, longitude: Double) -> Int? {
    guard PlaceFinder.isPosition(latitude: latitude, longitude: longitude) else { return nil }
    var nearest: (index: Int, distance: Double)?
    for (index, area) in corrections.areas.enumerated() {
      let distance = PlaceFinder.distance((latitude, longitude), (area.latitude, area.longitude))
      if distance <= area.radius, distance < nearest?.distance ?? .infinity { nearest = (index, distance) }
    }
    if let nearest { return Self.areaKeys + nearest.index }
    return finder.key(latitude: latitude, longitude: longitude)
  }

  public func place(latitude: Double, longitude: Double) -> Place? {
    key(latitude: latitude, longitude: longitude).flatMap(place(key:))
  }

  /// The names for a key, corrected.
  public func place(key: Int) -> Place? {
    if key >= Self.areaKeys {
      let index = key - Self.areaKeys
      guard index < corrections.areas.count else { return nil }
      let area = corrections.areas[index]
      // An area is in the country its centre is in.
      let around = finder.place(latitude: area.latitude, longitude: area.longitude)
      return Place(
        city: area.name, region: nil, country: around?.country ?? "", countryCode: around?.countryCode ?? "")
    }
    guard let place = finder.place(key: key) else { return nil }
    guard let rename = corrections.renames.first(where: { $0.matches(place) }) else { return place }
    // "Windsor" near Detroit is Windsor, Ontario, Canada; a name the table
    // does not have nearby keeps the region and country.
    if key < finder.table.count {
      let entry = finder.table.entry(key)
      let wanted = PlaceText.folded(rename.to)
      for near in finder.places(nearLatitude: entry.latitude, longitude: entry.longitude, within: Self.renameReach)
      where PlaceText.folded(finder.table.entry(near.index).name) == wanted {
        return finder.place(key: near.index)
      }
    }
    var renamed = place
    renamed.city = rename.to
    return renamed
  }

  /// What the index's names depend on: the table and the corrections.
  public var fingerprint: String { "\(finder.table.count)|\(corrections.fingerprint)" }
}
