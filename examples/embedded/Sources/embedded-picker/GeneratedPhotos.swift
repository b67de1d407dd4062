import Foundation
import PickerTUI

/// A photo source of this program's own: a few generated photos and one
/// album, listed from memory in pages. It implements only what it must
/// (`id`, `title`, `items(in:page:)`) plus what it can do (albums, paging),
/// and takes the protocol's defaults for sign-in and search.
final class GeneratedPhotos: PhotoSource {
  let id = "generated"
  let title = "Generated"
  var icon: String { "◆" }
  var capabilities: SourceCapabilities { [.albums, .paging] }
  var rootLabel: String { "generated photos" }

  /// The album's id, as `items(in:)` receives it.
  static let albumID = "warm"

  private let root: [PhotoItem]
  private let album: [PhotoItem]

  /// Writes `count` photos (half of them in the album) as PNG files in
  /// `folder`: picked photos come back to the host as those paths.
  init(folder: String, count: Int) throws {
    var root: [PhotoItem] = []
    var album: [PhotoItem] = []
    for number in 1...count {
      let warm = number % 2 == 0
      let name = String(format: "%@-%02d.png", warm ? "warm" : "cool", number)
      let path = folder + "/" + name
      guard let png = ImageEncoder.encode(Self.gradient(number: number, warm: warm), as: .png) else {
        throw SourceError("cannot encode \(name)")
      }
      guard FileManager.default.createFile(atPath: path, contents: Data(png)) else {
        throw SourceError("cannot write \(path)")
      }
      let file = PathBytes(path)
      let item = PhotoItem(
        id: name, kind: .photo, title: Array(name.utf8), thumbnail: .file(file), original: .file(file),
        outputPath: file)
      if warm { album.append(item) } else { root.append(item) }
    }
    self.album = album
    self.root =
      [PhotoItem(id: Self.albumID, kind: .folder(count: album.count), title: Array("Warm colours".utf8))] + root
  }

  func items(in folder: FolderID?, page: PageRequest) async throws -> Page {
    let listing: [PhotoItem]
    switch folder {
    case nil: listing = root
    case Self.albumID?: listing = album
    case let other?: throw SourceError("no album \(other)")
    }
    let start = min(max(page.offset, 0), listing.count)
    let end = min(start + max(page.limit, 0), listing.count)
    return Page(items: Array(listing[start..<end]), hasMore: end < listing.count, total: listing.count)
  }

  /// A 160x120 gradient whose hue tells the photos apart.
  private static func gradient(number: Int, warm: Bool) -> PixelImage {
    let (width, height) = (160, 120)
    var rgba = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let offset = (y * width + x) * 4
        let shade = UInt8((x * 255) / width)
        let band = UInt8((number * 37) % 200)
        rgba[offset] = warm ? 255 : band
        rgba[offset + 1] = warm ? shade : UInt8((y * 255) / height)
        rgba[offset + 2] = warm ? band : 255
      }
    }
    return PixelImage(width: width, height: height, rgba: rgba)
  }
}
