import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

/// A video's thumbnail is a frame FFmpeg's libraries decode (in this
/// process here; the picker runs them in its helper): not the black first
/// frame of a fade, upright by the track's rotation, scaled to cover the
/// box, and a damaged or cut file is the file's error, never a crash.
@Suite struct VideoFramesTests {
  let root: String
  let decoder = ImageDecoder(maxPixels: 40_000_000)
  let box = PixelSize(width: 256, height: 256)

  init() throws {
    root = NSTemporaryDirectory() + "video-frames-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  /// A clip of ffmpeg's colour bars (`testsrc2`) with these options.
  func clip(_ name: String, size: String = "320x240", seconds: String = "3", _ options: [String] = []) throws
    -> PathBytes
  {
    let path = root + "/" + name
    let made = try ChildRun.run(
      ["/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-t", seconds]
        + options + [path])
    #expect(made.status == 0, "ffmpeg \(options)")
    return PathBytes(path)
  }

  /// The mean of the green channel over a grid of pixels (0-255).
  func meanLevel(_ image: PixelImage) -> Int {
    var sum = 0
    var count = 0
    for y in stride(from: 0, to: image.height, by: 4) {
      for x in stride(from: 0, to: image.width, by: 4) {
        sum += Int(image.pixel(x: x, y: y).g)
        count += 1
      }
    }
    return sum / max(count, 1)
  }

  @Test func aFadeInGivesAFrameFromFurtherInNotTheBlackStart() throws {
    // Black for the first second and a half of three: a tenth in is dark.
    let path = try clip("fade.mp4", ["-vf", "fade=in:0:38", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    let decoded = try decoder.decode(file: path, covering: PixelSize(width: 160, height: 160))
    #expect(decoded.format == .video)
    #expect(meanLevel(decoded.image) > 40)
    // Covers the box, keeping 4:3: the short side is the box's.
    #expect(decoded.image.height == 160 && decoded.image.width == 213)
    // Never enlarged past the clip's own size.
    #expect(try decoder.decode(file: path, covering: PixelSize(width: 640, height: 640)).image.width == 320)
    #expect(decoded.sourceSize == PixelSize(width: 320, height: 240))
  }

  @Test func aPortraitPhoneClipIsUpright() throws {
    let path = try clip("portrait.mov", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    // A phone stores portrait video landscape with a quarter turn in the
    // track's matrix; exiftool writes that matrix.
    let turned = try ChildRun.run(["/usr/bin/exiftool", "-q", "-overwrite_original", "-Rotation=90", path.lossyString])
    #expect(turned.status == 0)
    let decoded = try decoder.decode(file: path, covering: PixelSize(width: 120, height: 120))
    #expect(decoded.orientation == 6)
    #expect(decoded.image.height > decoded.image.width)
    #expect(decoded.image.width == 120 && decoded.image.height == 160)
  }

  @Test func hevcWebMAndAVIDecodeToo() throws {
    let hevc = try clip("clip.mp4", ["-c:v", "libx265", "-x265-params", "log-level=none", "-tag:v", "hvc1"])
    let webm = try clip("clip.webm", ["-c:v", "libvpx-vp9"])
    let avi = try clip("clip.avi", ["-c:v", "mpeg4"])
    for path in [hevc, webm, avi] {
      let decoded = try decoder.decode(file: path, covering: PixelSize(width: 64, height: 48))
      #expect(decoded.format == .video, "\(path)")
      #expect(decoded.image.width == 64 && decoded.image.height == 48, "\(path)")
      #expect(meanLevel(decoded.image) > 40, "\(path)")
    }
  }

  @Test func aCutOrFakeVideoIsTheFilesErrorAndAOneFrameClipIsItsFrame() throws {
    let whole = try clip("whole.mp4", ["-c:v", "libx264", "-movflags", "+faststart"])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: whole.lossyString))
    // The moov first, then a tenth of the media: the index is there, the
    // frames mostly are not.
    let cut = PathBytes(root + "/cut.mp4")
    try bytes.prefix(bytes.count / 10).write(to: URL(fileURLWithPath: cut.lossyString))
    do {
      let decoded = try decoder.decode(file: cut, covering: box)
      // The first key frame may be inside the tenth: then it is shown.
      #expect(decoded.image.width > 0)
    } catch {
      #expect(error.isContentError)
    }
    // A text file named .mp4 whose first box says "ftyp".
    let fake = PathBytes(root + "/fake.mp4")
    try Data([0, 0, 0, 16] + Array("ftypisomjunkjunk".utf8) + Array(repeating: 0x41, count: 4000)).write(
      to: URL(fileURLWithPath: fake.lossyString))
    #expect(throws: ImageDecodingError.self) { try decoder.decode(file: fake, covering: box) }
    do {
      _ = try decoder.decode(file: fake, covering: box)
    } catch {
      #expect(error.isContentError)
    }
    // One frame: there is nowhere to seek to.
    let single = try clip("one.mp4", seconds: "0.04", ["-c:v", "libx264"])
    #expect(try decoder.decode(file: single, covering: box).image.width > 0)
  }

  @Test func videoBytesInMemoryAreRefusedWithAReason() throws {
    let path = try clip("memory.mp4", seconds: "1", ["-c:v", "libx264"])
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path.lossyString)))
    #expect(ImageFormat.sniff(Array(bytes.prefix(16))) == .video)
    do {
      _ = try decoder.decode(bytes: bytes, covering: box)
      Issue.record("decoded a video from memory")
    } catch {
      #expect(error.message.contains("video"))
    }
  }

  @Test func lengthsAreWrittenAsGalleriesDo() {
    #expect(VideoLength.text(42.4) == "0:42")
    #expect(VideoLength.text(0.3) == "0:01")
    #expect(VideoLength.text(725) == "12:05")
    #expect(VideoLength.text(3790) == "1:03:10")
    #expect(VideoLength.text(.nan) == "0:00")
    #expect(VideoLength.text(1e300) == "277777:46:40")
  }
}
