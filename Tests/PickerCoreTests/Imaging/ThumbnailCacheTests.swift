import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct ThumbnailCacheTests {
  /// A folder with one photo and a private thumbnail cache.
  struct Setup {
    let folder: URL
    let cache: FreedesktopThumbnailCache
    let photo: URL
    let reports = Reports()

    init(photo bytes: [UInt8] = TestImages.jpeg(TestImages.quadrants(640, 480)), name: String = "photo.jpg") {
      folder = TestImages.temporaryFolder()
      cache = FreedesktopThumbnailCache(root: folder.appendingPathComponent("cache/thumbnails").path)
      photo = folder.appendingPathComponent(name)
      TestImages.write(bytes, to: photo)
      // A file changed in the last two seconds is never cached.
      Self.age(photo, seconds: 60)
    }

    static func age(_ url: URL, seconds: Int) {
      var times = [timeval(tv_sec: time(nil) - seconds, tv_usec: 0), timeval(tv_sec: time(nil) - seconds, tv_usec: 0)]
      _ = utimes(url.path, &times)
    }

    func pipeline() -> ImagePipeline {
      var configuration = ImagePipeline.Configuration()
      configuration.diskCache = cache
      configuration.workerCount = 1
      let reports = reports
      configuration.observer = { reports.append($0) }
      return ImagePipeline(configuration: configuration)
    }

    /// Loads the photo through a fresh pipeline and returns how it went.
    func load() -> (ThumbnailResult?, ImagePipeline.JobReport.Path?) {
      let results = Results()
      let before = reports.count
      let pipeline = pipeline()
      pipeline.load(
        ImageRequest(reference: .file(PathBytes(photo.path)), columns: 16, rows: 8, depth: .truecolor),
        completion: results.record("photo"))
      _ = eventually { reports.count > before }
      return (results.first("photo"), reports.last?.path)
    }

    var entry: FreedesktopThumbnailCache.Entry { try! cache.entry(for: PathBytes(photo.path)).get() }
  }

  final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [ImagePipeline.JobReport] = []
    func append(_ report: ImagePipeline.JobReport) { lock.withLock { reports.append(report) } }
    var count: Int { lock.withLock { reports.count } }
    var last: ImagePipeline.JobReport? { lock.withLock { reports.last } }
  }

  @Test func namesFollowTheSpec() {
    let entry = FreedesktopThumbnailCache.Entry(uri: "file:///home/jens/photos/me.png", mtime: 1)
    #expect(entry.name == "c6ee772d9e49320e97ec29a7eb5b1697.png")
    #expect(FreedesktopThumbnailCache.fileURI(PathBytes("/a b/ü#1.jpg")) == "file:///a%20b/%C3%BC%231.jpg")
    #expect(FreedesktopThumbnailCache.absolute(PathBytes("/x/./y//z.jpg")) == PathBytes("/x/y/z.jpg"))
    #expect(FreedesktopThumbnailCache.absolute(PathBytes("/x/a/../y/z.jpg")) == PathBytes("/x/y/z.jpg"))
    let cache = FreedesktopThumbnailCache.forCurrentUser(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])
    #expect(cache.root == "/c/thumbnails")
    #expect(FreedesktopThumbnailCache.forCurrentUser(environment: ["HOME": "/h"]).root == "/h/.cache/thumbnails")
  }

  @Test func firstLoadWritesTheEntryWithItsKeysAndPermissions() throws {
    let setup = Setup()
    let (result, path) = setup.load()
    #expect(path == .decoded(embeddedThumbnail: false))
    #expect((try? result?.get()) != nil)
    let file = setup.cache.path(of: setup.entry, flavor: .normal)
    #expect(eventually { FileManager.default.fileExists(atPath: file) })
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    for folder in [setup.cache.root, setup.cache.root + "/normal"] {
      let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
      #expect(mode == 0o700, "\(folder)")
    }
    let png = try #require(FileIO.readSmallFile(file))
    #expect(FreedesktopThumbnailCache.text(png, key: "Thumb::URI") == "file://" + setup.photo.path)
    #expect(FreedesktopThumbnailCache.text(png, key: "Thumb::MTime") == String(setup.entry.mtime))
    let thumbnail = try ImageDecoder().decode(bytes: png, covering: PixelSize(width: 128, height: 128)).image
    #expect(thumbnail.width == 128 && thumbnail.height == 96)
    #expect(TestImages.isUprightQuadrants(thumbnail))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.cache.root + "/normal")
    #expect(leftovers == [setup.entry.name], "no temporary files left")
  }

  @Test func secondLoadReadsTheCache() {
    let setup = Setup()
    _ = setup.load()
    #expect(eventually { FileManager.default.fileExists(atPath: setup.cache.path(of: setup.entry, flavor: .normal)) })
    let (result, path) = setup.load()
    #expect(path == .diskCache)
    #expect((try? result?.get()) != nil)
  }

  @Test func thumbnailsOtherProgramsMadeAreUsed() throws {
    // The photo is blue; a thumbnail some other program wrote is red.
    let setup = Setup(photo: TestImages.jpeg(TestImages.solid(300, 200, TestImages.blue)))
    try setup.cache.store(TestImages.solid(120, 80, TestImages.red), for: setup.entry, flavor: .normal)
    let (result, path) = setup.load()
    #expect(path == .diskCache)
    let cells = try #require(try result?.get().cells)
    #expect(
      cells.glyphs.contains {
        cells.color($0.background) == .rgb(0xFF0000) || cells.color($0.foreground) == .rgb(0xFF0000)
      })
  }

  @Test func staleEntryIsIgnoredAndReplaced() throws {
    let setup = Setup(photo: TestImages.jpeg(TestImages.solid(300, 200, TestImages.blue)))
    let stale = FreedesktopThumbnailCache.Entry(uri: setup.entry.uri, mtime: setup.entry.mtime - 100)
    try setup.cache.store(TestImages.solid(120, 80, TestImages.red), for: stale, flavor: .normal)
    let (_, path) = setup.load()
    #expect(path == .decoded(embeddedThumbnail: false))
    let file = setup.cache.path(of: setup.entry, flavor: .normal)
    #expect(
      eventually {
        FileIO.readSmallFile(file).flatMap {
          FreedesktopThumbnailCache.text($0, key: "Thumb::MTime")
        }
          == String(setup.entry.mtime)
      })
  }

  @Test func brokenFilesAreRememberedInTheFailFolder() throws {
    let setup = Setup(photo: Array("not a photo".utf8))
    let (first, path) = setup.load()
    #expect(path == .failed)
    guard case .failure(let error)? = first else {
      Issue.record("expected a failure")
      return
    }
    let failure = setup.cache.failurePath(of: setup.entry)
    #expect(failure.contains("/fail/picker-tui-\(pickerVersion)/"))
    #expect(eventually { FileManager.default.fileExists(atPath: failure) })
    #expect(setup.cache.failure(for: setup.entry) == error.message)
    // Once the file changes, the failure no longer applies.
    TestImages.write(TestImages.jpeg(TestImages.quadrants()), to: setup.photo)
    Setup.age(setup.photo, seconds: 30)
    #expect(setup.cache.failure(for: setup.entry) == nil)
    #expect(setup.load().1 == .decoded(embeddedThumbnail: false))
  }

  @Test func filesStillBeingWrittenAreNotCached() throws {
    let setup = Setup(photo: Array("half a fi".utf8))
    Setup.age(setup.photo, seconds: 0)
    #expect(setup.load().1 == .failed)
    usleep(50_000)
    #expect(!FileManager.default.fileExists(atPath: setup.cache.failurePath(of: setup.entry)))
  }

  @Test func filesThatCannotBeOpenedAreNotRememberedAsBroken() throws {
    let setup = Setup()
    #expect(mkfifo(setup.folder.appendingPathComponent("pipe.jpg").path, 0o600) == 0)
    let fifo = Setup(photo: [], name: "unused.jpg")
    let pipePath = setup.folder.appendingPathComponent("pipe.jpg").path
    let results = Results()
    let pipeline = fifo.pipeline()
    pipeline.load(
      ImageRequest(reference: .file(PathBytes(pipePath)), columns: 16, rows: 8, depth: .truecolor),
      completion: results.record("pipe"))
    #expect(eventually { results.count("pipe") == 1 })
    let entry = try fifo.cache.entry(for: PathBytes(pipePath)).get()
    usleep(20_000)
    #expect(!FileManager.default.fileExists(atPath: fifo.cache.failurePath(of: entry)))
  }
}
