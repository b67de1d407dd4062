import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

private func rawThumbnail(_ bytes: [UInt8]) -> PixelThumbnail {
  PixelThumbnail(
    graphics: .kitty, columns: 2, rows: 2, pixelSize: PixelSize(width: 2, height: bytes.count / 6),
    payload: bytes, dataFormat: "f=24", payloadIsRaw: true)
}

private func scratchFolder() -> String {
  let folder = NSTemporaryDirectory() + "kitty-files-\(UUID().uuidString)"
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder
}

private func filesIn(_ folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

@Suite struct KittyFilesTests {
  @Test func aPictureGoesAsATemporaryFileThatKittyWillRead() throws {
    let folder = scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let writer = KittyWriter(files: KittyFiles(folder: folder))
    let pixels: [UInt8] = Array(0..<24)
    var screen = Screen(width: 20, height: 10)
    screen.images = [ImagePlacement(x: 1, y: 1, image: rawThumbnail(pixels))]
    let units = writer.finishUnits(screen, changed: ChangedCells(width: 20, height: 10), fullRedraw: false)
    let command = String(decoding: units[0].bytes, as: UTF8.self)
    #expect(command.hasPrefix("\u{1B}_Ga=t,i=") && command.contains(",f=24,s=2,v=4,t=t,q=2;"))
    let named = command.split(separator: ";")[1].dropLast(2)
    let path = String(decoding: Data(base64Encoded: String(named))!, as: UTF8.self)
    // Where kitty reads from, under the name it insists on.
    #expect(path.hasPrefix(folder + "/") && path.contains("tty-graphics-protocol"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(pixels))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600, "nobody else reads the user's photos")
    // The picker ends before kitty read it: the file goes too.
    _ = writer.clear()
    #expect(filesIn(folder).isEmpty)
  }

  @Test func aPictureDroppedBeforeItWentOutLeavesNoFile() {
    let folder = scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let writer = KittyWriter(files: KittyFiles(folder: folder))
    var screen = Screen(width: 20, height: 10)
    screen.images = [ImagePlacement(x: 1, y: 1, image: rawThumbnail(Array(repeating: 7, count: 12)))]
    let units = writer.finishUnits(screen, changed: ChangedCells(width: 20, height: 10), fullRedraw: false)
    #expect(filesIn(folder).count == 1)
    writer.undelivered(units.compactMap(\.tag))
    #expect(filesIn(folder).isEmpty)
    // And the next frame sends it again, as a new file.
    _ = writer.finishUnits(screen, changed: ChangedCells(width: 20, height: 10), fullRedraw: false)
    #expect(filesIn(folder).count == 1)
  }

  @Test func withoutAFolderRawPixelsGoInBase64() {
    let writer = KittyWriter()
    var screen = Screen(width: 20, height: 10)
    screen.images = [ImagePlacement(x: 1, y: 1, image: rawThumbnail([1, 2, 3, 4, 5, 6]))]
    let bytes = writer.finishUnits(screen, changed: ChangedCells(width: 20, height: 10), fullRedraw: false)
    #expect(String(decoding: bytes.joinedBytes, as: UTF8.self).contains(";AQIDBAUG\u{1B}\\"))
  }

  @Test func theStartUpQueryNamesItsFileAndAnOKMeansFiles() throws {
    let folder = scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = try #require(KittyFiles.writeQueryFile(in: folder))
    let queries = String(decoding: GraphicsDetection.queries(kittyFile: file), as: UTF8.self)
    let name = Data(file.utf8).base64EncodedString()
    #expect(queries.contains("\u{1B}_Gi=32,s=1,v=1,a=q,t=t,f=24;\(name)\u{1B}\\"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data([0, 0, 0]))
    var facts = TerminalFacts()
    facts.absorb(.kittyGraphics(id: 31, message: "OK"))
    facts.absorb(.kittyGraphics(id: 32, message: "EBADF:Failed to open file"))
    facts.absorb(.primaryAttributes([62]))
    func decide(_ facts: TerminalFacts, passthrough: Bool? = nil) -> GraphicsSupport {
      GraphicsDetection.decide(
        mode: .auto, facts: facts, environment: [:], passthrough: passthrough, windowPixels: nil, windowCells: nil,
        kittyFileFolder: folder)
    }
    #expect(decide(facts).graphics == .kitty && decide(facts).kittyFileFolder == nil, "over ssh: in the stream")
    facts.absorb(.kittyGraphics(id: 32, message: "OK"))
    #expect(decide(facts).kittyFileFolder == folder)
    #expect(decide(facts, passthrough: true).kittyFileFolder == nil, "never through tmux")
  }
}
