import Foundation
import Testing

/// Compares text with a file in Golden/; with PICKER_RECORD_GOLDEN=1 the
/// file is written instead, to be reviewed in the diff.
func expectGolden(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
  let file = folder.appendingPathComponent(name + ".txt")
  if ProcessInfo.processInfo.environment["PICKER_RECORD_GOLDEN"] == "1" {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? (text + "\n").write(to: file, atomically: true, encoding: .utf8)
    return
  }
  guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
    Issue.record("no golden file \(file.path); record with PICKER_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
    return
  }
  #expect(text + "\n" == expected, "golden \(name) differs:\n\(text)", sourceLocation: sourceLocation)
}
