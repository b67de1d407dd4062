import Foundation

/// Live Photos: an iPhone's still (HEIC or JPEG) with a short MOV of the
/// same name beside it; and Motion Photos, Google's stills with the video
/// inside (`MVIMG_…jpg`, `PXL_….MP.jpg`). The still is the photo: it is
/// marked LIVE, a pick prints it, and `--live-videos` prints the MOV on
/// the line after it.
public enum LivePhotos {
  static let stillExtensions: Set<[UInt8]> = Set(["heic", "heif", "jpg", "jpeg"].map { Array($0.utf8) })

  /// The name before the last dot and the extension lowercased.
  static func split(_ name: [UInt8]) -> (stem: [UInt8], ext: [UInt8])? {
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return nil }
    return (Array(name[..<dot]), name[(dot + 1)...].map(Sidecars.lowercased))
  }

  /// The MOV of a still among a folder's names (`movs`: stem → name).
  static func video(of still: [UInt8], among movs: [[UInt8]: [UInt8]]) -> [UInt8]? {
    guard !movs.isEmpty, let (stem, ext) = split(still), stillExtensions.contains(ext) else { return nil }
    return movs[stem]
  }

  /// The folder's MOV files by their stem.
  static func movies(among names: [[UInt8]]) -> [[UInt8]: [UInt8]] {
    var movs: [[UInt8]: [UInt8]] = [:]
    for name in names {
      if let (stem, ext) = split(name), ext == Array("mov".utf8) { movs[stem] = name }
    }
    return movs
  }

  /// The MOVs of a folder's names that are a still's Live video: a listing
  /// shows the still (marked LIVE), not the MOV on its own.
  static func pairedMovies(among names: [[UInt8]]) -> Set<[UInt8]> {
    let movs = movies(among: names)
    guard !movs.isEmpty else { return [] }
    var paired: Set<[UInt8]> = []
    for name in names {
      if let mov = video(of: name, among: movs) { paired.insert(mov) }
    }
    return paired
  }

  /// Google's Motion Photos say so in their names.
  /// Compared byte by byte in ASCII's two cases: every listed photo is
  /// asked, and an uppercased String a name cost more than the listing.
  public static func isMotionPhoto<Name: BidirectionalCollection<UInt8>>(name: Name) -> Bool {
    func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }
    func starts(_ prefix: String) -> Bool { name.lazy.map(lowered).starts(with: prefix.utf8) }
    func ends(_ suffix: String) -> Bool {
      name.count >= suffix.utf8.count && name.suffix(suffix.utf8.count).lazy.map(lowered).elementsEqual(suffix.utf8)
    }
    return (starts("mvimg_") && ends(".jpg")) || ends(".mp.jpg") || ends(".mp.jpeg")
  }

  /// The MOV beside a picked still, for `--live-videos`: looked up when
  /// printing, so it holds for a still picked from any tab.
  public static func video(beside still: PathBytes) -> PathBytes? {
    guard let slash = still.bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
    let name = Array(still.bytes[(slash + 1)...])
    guard let (stem, ext) = split(name), stillExtensions.contains(ext) else { return nil }
    let folder = PathBytes(Array(still.bytes[..<slash]))
    for suffix in [".MOV", ".mov"] {
      let candidate = folder.appending(stem + Array(suffix.utf8))
      if let info = DirectoryReader.status(candidate), (info.st_mode & S_IFMT) == S_IFREG { return candidate }
    }
    return video(sharingContentIDWith: still, in: folder)
  }

  /// A MOV renamed on export or upload: the one in the still's folder with
  /// its Apple content identifier. Headers are read here, at print time,
  /// for the picked stills that have an identifier and no MOV of their name.
  static func video(sharingContentIDWith still: PathBytes, in folder: PathBytes) -> PathBytes? {
    func contentID(_ path: PathBytes) -> String? {
      PhotoMetadataReader.read(path: path, name: [], modified: timespec(), latestDay: Int.max / 4).contentID
    }
    guard let id = contentID(still), let entries = try? DirectoryReader.readAll(folder) else { return nil }
    for entry in entries where !entry.isFolder && split(entry.name)?.ext == Array("mov".utf8) {
      let candidate = folder.appending(entry.name)
      if contentID(candidate) == id { return candidate }
    }
    return nil
  }
}
