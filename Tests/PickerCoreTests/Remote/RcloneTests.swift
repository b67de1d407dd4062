import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// The rclone source's pure parts: `operations/list` entries as items, and
/// listed URLs moved onto the running daemon's address.
@Suite struct RcloneTests {
  func entry(_ name: String, dir: Bool = false, mime: String? = nil) -> JSONValue {
    var object: [String: JSONValue] = [
      "Name": .string(name), "Path": .string(name), "IsDir": .bool(dir), "Size": .number(dir ? -1 : 1234),
      "ModTime": .string("2026-11-23T10:00:00Z"),
    ]
    if let mime { object["MimeType"] = .string(mime) }
    return .object(object)
  }

  func url(_ path: String) -> String { RcloneSource.listedBase + "/%5Bdropbox%3APhotos%5D/" + path }

  @Test func foldersAreAlbumsImagesArePhotosOthersSkipped() {
    let items = RcloneListing.items(
      [
        entry("img10.jpg", mime: "image/jpeg"), entry("img9.JPG"), entry("notes.txt", mime: "text/plain"),
        entry("Trip", dir: true, mime: "inode/directory"), entry("scan", mime: "image/tiff"), entry("../x.jpg"),
        entry("a/b.jpg"),
      ], folder: "2026", fileURL: url, sourceID: "rclone:Dropbox")
    #expect(items.map { String(decoding: $0.title, as: UTF8.self) } == ["Trip", "img9.JPG", "img10.jpg", "scan"])
    #expect(items[0].isFolder && items[0].id == "2026/Trip")
    #expect(items[1].original == .remote(source: "rclone:Dropbox", url: url("2026/img9.JPG")))
    // The thumbnail is a ranged read, keyed by the file's time and size.
    guard case .remote(_, let thumbnail)? = items[1].thumbnail else {
      Issue.record("no thumbnail")
      return
    }
    #expect(DAVListing.file(ofHeadURL: thumbnail) == url("2026/img9.JPG"))
    #expect(thumbnail.contains("1234"))
  }

  @Test func listedURLsAreMovedOntoTheRunningDaemon() {
    let listed = url("2026/a%20b.jpg")
    #expect(
      RemoteHTTP.rebased(listed, on: "http://127.0.0.1:40123")
        == "http://127.0.0.1:40123/%5Bdropbox%3APhotos%5D/2026/a%20b.jpg")
    // Only URLs this source listed are moved.
    #expect(RemoteHTTP.rebased("http://example.org/x.jpg", on: "http://127.0.0.1:1") == "http://example.org/x.jpg")
  }

  @Test func theConfigNeedsARemoteOfTheUsersRcloneConfig() throws {
    let good = try ConfigFile.parse(
      "[[sources]]\nkind = \"rclone\"\nname = \"Dropbox\"\nremote = \"dropbox:Camera Uploads\"\n", path: "/c.toml")
    #expect(
      good.sources == [.rclone(name: "Dropbox", remote: "dropbox:Camera Uploads", executable: "rclone", timeout: 30)])
    #expect(throws: ConfigFile.Error.self) {
      try ConfigFile.parse("[[sources]]\nkind = \"rclone\"\nname = \"D\"\nremote = \"/home/me\"\n", path: "/c.toml")
    }
  }
}
