import ArgumentParser
import Foundation
import PickerTUI

/// `picker-tui thumbnail [-s SIZE] INPUT OUTPUT`: the freedesktop thumbnailer
/// convention (`Exec=picker-tui thumbnail -s %s %i %o`), so file managers get
/// thumbnails from the decoders the grid uses; also how tests and benchmarks
/// look at decoded pixels.
struct ThumbnailCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "thumbnail",
    abstract: "Write a PNG thumbnail of a photo (the freedesktop thumbnailer convention).",
    discussion: """
      OUTPUT is a PNG of at most SIZE pixels on its longest side, turned upright. An image that
      cannot be read gives exit 1, one line on stderr, and no OUTPUT.
      """)

  @Option(name: .shortAndLong, help: "The longest side in pixels.")
  var size = 256

  @Argument(help: "The photo (a path or a file:// URI).")
  var input: String

  @Argument(help: "The PNG to write.")
  var output: String

  func validate() throws {
    guard (1...4096).contains(size) else { throw ValidationError("-s must be from 1 to 4096") }
  }

  func run() throws {
    let path = Self.path(from: input)
    let box = PixelSize(width: size, height: size)
    let decoded: DecodedImage
    do {
      decoded = try StandardDescriptors.silencingLibraryMessages { () throws(ImageDecodingError) in
        try ImageDecoder().decode(file: PathBytes(path), covering: box)
      }
    } catch {
      throw PickerExit(code: 1, message: "\(path): \(error.message)")
    }
    let image = decoded.image.fitted(maxWidth: size, maxHeight: size)
    guard let png = ImageEncoder.encode(image, as: .png) else {
      throw PickerExit(code: 1, message: "\(path): cannot encode the thumbnail")
    }
    // Written beside OUTPUT and renamed: a reader never sees half a file,
    // and a failure leaves no OUTPUT.
    let temporary = output + ".\(getpid()).tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: Data(png)) else {
      throw PickerExit(code: 2, message: "cannot write \(output)")
    }
    guard rename(temporary, output) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw PickerExit(code: 2, message: "cannot write \(output): \(reason)")
    }
  }

  /// File managers pass `%i` as a path or, some of them, as a file:// URI.
  static func path(from input: String) -> String {
    guard input.hasPrefix("file://"), let url = URL(string: input), url.isFileURL else { return input }
    return url.path
  }
}
