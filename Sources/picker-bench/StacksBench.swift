import ArgumentParser
import Foundation
import PickerTUI

/// Stacks judged on a generated set (scripts/make-bursts.py): how often
/// the rule's decisions agree with the truth, how often a stack's cover is
/// its sharp frame, and what hashing, scoring and stacking cost.
struct StacksBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stacks",
    abstract: "Accuracy and cost of stacking on a set made by scripts/make-bursts.py.")

  @Argument(help: "The folder scripts/make-bursts.py wrote (with its manifest.json).")
  var folder: String

  @Option(help: "The thumbnail's longest side the signatures are taken from.")
  var thumbnailSize = 256

  func run() throws {
    let manifest = try Manifest.load(folder + "/manifest.json")
    // Each photo: its date as the index reads it, and its thumbnail.
    var entries: [(name: String, taken: Double, thumbnail: PixelImage)] = []
    for file in manifest.files {
      let path = PathBytes(folder + "/" + file.file)
      var status = stat()
      guard stat(folder + "/" + file.file, &status) == 0 else {
        throw BenchExit(code: 2, message: "\(file.file) missing")
      }
      let metadata = PhotoMetadataReader.read(
        path: path, name: Array(file.file.utf8), modified: status.st_mtim, latestDay: Int.max)
      let box = PixelSize(width: thumbnailSize, height: thumbnailSize)
      let decoded = try ImageDecoder().decode(file: path, covering: box).image.fitted(
        maxWidth: thumbnailSize, maxHeight: thumbnailSize)
      entries.append((file.file, Double(metadata.taken.wallClock) / 1000, decoded))
    }
    entries.sort { ($0.taken, $0.name) < ($1.taken, $1.name) }
    // Signatures, timed one photo at a time.
    var signatures: [PhotoSignature] = []
    var times: [Double] = []
    for entry in entries {
      let start = DispatchTime.now().uptimeNanoseconds
      signatures.append(PhotoSignature(of: entry.thumbnail))
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    let photos = zip(entries, signatures).map { entry, signature in
      StackingRule.Photo(taken: entry.taken, signature: signature, burstID: BurstName.id(fromFileName: entry.name))
    }
    let rule = StackingRule()
    let stacks = rule.stacks(photos)
    var predicted = [Int](repeating: 0, count: photos.count)
    for (number, range) in stacks.enumerated() { for index in range { predicted[index] = number } }
    let truth = Dictionary(uniqueKeysWithValues: manifest.files.map { ($0.file, $0.stack) })
    let actual = entries.map { truth[$0.name]! }
    // Every pair, and the neighbours (the decisions the rule makes).
    var wrongPairs = 0, pairs = 0
    for i in actual.indices {
      for j in actual.indices where j > i {
        pairs += 1
        if (predicted[i] == predicted[j]) != (actual[i] == actual[j]) { wrongPairs += 1 }
      }
    }
    let neighbours = max(1, actual.count - 1)
    var wrongNeighbours = 0
    for index in 1..<actual.count {
      let joined: Bool = predicted[index] == predicted[index - 1]
      let together: Bool = actual[index] == actual[index - 1]
      if joined != together { wrongNeighbours += 1 }
    }
    // Each burst's cover: the sharpest of the stack holding its sharp frame.
    let position = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.name, $0) })
    var rightCovers = 0
    for burst in manifest.bursts {
      guard let sharp = position[burst.sharpest] else { continue }
      let range = stacks[predicted[sharp]]
      let (_, best) = StackingRule.scores(range.map { signatures[$0] })
      if let best, range.lowerBound + best == sharp { rightCovers += 1 }
    }
    // Stacking a 10,000-photo timeline (the set repeated, hours apart).
    var many: [StackingRule.Photo] = []
    var shift = 0.0
    while many.count < 10_000 {
      for photo in photos where many.count < 10_000 {
        var moved = photo
        moved.taken = (photo.taken ?? 0) + shift
        many.append(moved)
      }
      shift += 1e6
    }
    var stackTimes: [Double] = []
    for _ in 0..<5 {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = rule.stacks(many)
      stackTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    // The same 10,000 as a timeline's listing, stacked as the grid does
    // it: one page into a scope (fold, entry starts, day sections).
    let items = many.enumerated().map { offset, photo -> PhotoItem in
      var item = PhotoItem(id: "\(offset)", kind: .photo, title: Array("p\(offset).jpg".utf8))
      item.taken = TakenDate(wallClock: Int64((photo.taken ?? 0) * 1000), origin: .exif)
      item.signature = photo.signature
      return item
    }.reversed()
    var listingTimes: [Double] = []
    var tiles = 0
    for _ in 0..<5 {
      let start = DispatchTime.now().uptimeNanoseconds
      var scope = Scope(kind: .root, label: "Photos", generation: 1, sort: .date)
      scope.restack(rule)
      scope.receive(Page(items: Array(items), hasMore: false, total: items.count))
      listingTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      tiles = scope.items.count
    }
    // A signature read from the file, as the index fills in: a decode at
    // thumbnail size, then the hash and the score.
    var readTimes: [Double] = []
    for file in manifest.files.prefix(60) {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = PhotoSignature.read(file: PathBytes(folder + "/" + file.file))
      readTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    print("photos \(photos.count), bursts \(manifest.bursts.count), stacks found \(stacks.count)")
    print(
      String(
        format: "pairwise error %.2f%% of %d pairs; neighbours %.2f%% of %d; sharpest frame as cover %d of %d (%.1f%%)",
        100 * Double(wrongPairs) / Double(max(1, pairs)), pairs, 100 * Double(wrongNeighbours) / Double(neighbours),
        neighbours, rightCovers, manifest.bursts.count,
        100 * Double(rightCovers) / Double(max(1, manifest.bursts.count))))
    print(
      String(
        format:
          "hash + sharpness per photo (a %d px thumbnail): median %.3f ms; stacking 10,000 photos: median %.2f ms",
        thumbnailSize, median(times) ?? 0, median(stackTimes) ?? 0))
    print(
      String(
        format:
          "10,000 photos listed into stacked tiles (%d tiles): median %.1f ms; a signature read from its file: median %.1f ms",
        tiles, median(listingTimes) ?? 0, median(readTimes) ?? 0))
  }

  private struct Manifest: Decodable {
    struct File: Decodable {
      var file: String
      var stack: Int
    }
    struct Burst: Decodable {
      var stack: Int
      var files: [String]
      var sharpest: String
    }
    var files: [File]
    var bursts: [Burst]

    static func load(_ path: String) throws -> Manifest {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw BenchExit(code: 2, message: "no manifest at \(path): make the set with scripts/make-bursts.py")
      }
      return try JSONDecoder().decode(Manifest.self, from: data)
    }
  }
}
