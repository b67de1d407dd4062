/// `[places]` in the config: what the user says of places, over what the
/// table says. A name for a position (`home = [52.52, 13.40, 0.5]`:
/// latitude, longitude, radius in km) names every photo inside that circle,
/// so the street of a house never shows; a place given another name
/// (`"Detroit" = "Windsor"`, or `"Detroit, Michigan" = "Windsor"` to say
/// which Detroit) shows as that name, with the region and country of a
/// place of that name nearby when the table has one.
public struct PlaceCorrections: Hashable, Sendable {
  public struct Area: Hashable, Sendable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// In km.
    public var radius: Double

    public init(name: String, latitude: Double, longitude: Double, radius: Double) {
      self.name = name
      self.latitude = latitude
      self.longitude = longitude
      self.radius = radius
    }
  }

  public struct Rename: Hashable, Sendable {
    /// "Detroit" or "Detroit, Michigan" (city, then region, then country).
    public var from: String
    public var to: String

    public init(from: String, to: String) {
      self.from = from
      self.to = to
    }

    /// Whether this rename is for `place`: its city, and the region and
    /// country where the key names them, match with case and accents folded.
    func matches(_ place: Place) -> Bool {
      let parts = from.split(separator: ",").map { PlaceText.folded(String($0)) }
      let names = [place.city, place.region, place.country].map { PlaceText.folded($0 ?? "") }
      guard !parts.isEmpty, parts.count <= 3 else { return false }
      return zip(parts, names).allSatisfy { $0 == $1 }
    }
  }

  public var areas: [Area] = []
  public var renames: [Rename] = []

  public init(areas: [Area] = [], renames: [Rename] = []) {
    self.areas = areas
    self.renames = renames
  }

  public var isEmpty: Bool { areas.isEmpty && renames.isEmpty }

  /// Changes whenever the corrections do: the index names its photos'
  /// places again when this differs from what it was named with.
  var fingerprint: String {
    let areaText = areas.map { "\($0.name)@\($0.latitude),\($0.longitude),\($0.radius)" }
    let renameText = renames.map { "\($0.from)=\($0.to)" }
    return (areaText + renameText).joined(separator: ";")
  }
}
