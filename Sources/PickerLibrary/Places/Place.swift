/// Where a photo was taken, in words: a city (or town, village), its region
/// and its country. A position far from any place may have a country alone.
public struct Place: Hashable, Sendable {
  public var city: String?
  public var region: String?
  public var country: String
  /// ISO 3166 letters ("PT").
  public var countryCode: String

  public init(city: String?, region: String?, country: String, countryCode: String) {
    self.city = city
    self.region = region
    self.country = country
    self.countryCode = countryCode
  }

  /// "Lisbon, Lisbon, Portugal"; a region named like its city is said once
  /// only when the two differ.
  public var label: String {
    [city, region, country].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
  }
}
