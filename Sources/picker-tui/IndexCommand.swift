import ArgumentParser
import Foundation
import PickerTUI

/// `picker-tui index [DIR…]`: brings the library index up to date from a
/// script or cron, with a progress bar on stderr when it is a terminal;
/// `--stats` says what it holds.
struct IndexCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "index",
    abstract: "Build or refresh the library index of dates taken (what Photos lists).",
    discussion: "With no folder: the [library] roots of the config, else the pictures folder.")

  @Argument(help: "Library folders (default: the config's [library] roots, else ~/Pictures).")
  var folders: [String] = []

  @Flag(help: "Print what the index holds for the folders: photos, dates by origin, size on disk.")
  var stats = false

  @Option(help: "The config file (default: $XDG_CONFIG_HOME/picker-tui/config.toml).")
  var config: String?

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let roots = try self.roots(environment: environment)
    let file = try Pick.loadConfig(config, environment: environment)
    // The config's names for places are what the index names photos with.
    PlaceData.use(file?.placeCorrections ?? PlaceCorrections())
    let index = LibraryIndex(path: LibraryIndex.defaultPath(environment: environment))
    if let notice = index.notice { FileHandle.standardError.write(Data("picker-tui: \(notice)\n".utf8)) }
    let bar = isatty(2) == 1 ? ProgressBar() : nil
    let summary: ScanSummary
    let signatures: Int
    let copies: Int
    do throws(SQLiteError) {
      summary = try index.scan(roots, countsFirst: bar != nil) { bar?.show($0) }
      copies = try index.findCopies(roots, changed: summary.changedAnything)
      // What stacks need, read now so the picker stacks at once.
      let gap = file?.stackingRule.maxGap ?? StackingRule().maxGap
      signatures = try index.readSignatures(roots, maxGap: gap)
    } catch {
      throw PickerExit(code: 2, message: "the library index failed: \(error.message)")
    }
    bar?.finish()
    var lines = [
      "\(summary.photos) photos: \(summary.read) read, \(summary.moved) moved, \(summary.removed) removed"
        + (summary.unreadableFolders > 0 ? ", \(summary.unreadableFolders) folders unreadable" : "")
    ]
    if copies > 0 { lines.append("\(copies) copies of other photos, each shown once") }
    if signatures > 0 { lines.append("\(signatures) photos taken close together read for stacks") }
    if stats {
      let filter = LibraryFilter(roots: roots)
      let origins = (try? index.originCounts(filter)) ?? [:]
      lines.append(
        "dates taken: "
          + TakenDate.Origin.libraryOrder.filter { [.exif, .fileName, .fileTime].contains($0) || origins[$0] != nil }
          .map { "\(origins[$0] ?? 0) from \($0.label)" }.joined(separator: ", "))
      if let videos = try? index.videoSummary(filter), videos.count > 0 {
        lines.append("videos: \(videos.count), \(VideoLength.text(videos.seconds)) in all")
      }
      if let places = try? index.placeSummary(filter) {
        lines.append(
          "places: \(places.named) of \(places.withPosition) photos with a position named, in \(places.places) places"
            + " of \(places.countries) countries")
      }
      let days = (try? index.dayCounts(filter)) ?? []
      if let newest = days.first, let oldest = days.last {
        lines.append(
          "from \(CivilDate(dayNumber: oldest.day).iso) to \(CivilDate(dayNumber: newest.day).iso) on \(days.count) days"
        )
      }
      let total = origins.values.reduce(0, +)
      // After a checkpoint: the log's pages are the index's, not more.
      index.checkpoint()
      let bytes = index.bytesOnDisk
      lines.append(
        "index: \(index.path ?? "in memory"), \(bytes) bytes"
          + (total > 0 ? " (\(bytes / Int64(total)) per photo, all roots)" : ""))
    }
    print(lines.joined(separator: "\n"))
  }

  private func roots(environment: [String: String]) throws -> [PathBytes] {
    if !folders.isEmpty {
      for folder in folders {
        switch DirectoryReader.fileKind(PathBytes(folder)) {
        case .folder?: continue
        case nil: throw PickerExit(code: 2, message: "\(folder): no such folder (index takes folders of photos)")
        case .file?:
          throw PickerExit(code: 2, message: "\(folder): a file, not a folder (index takes folders of photos)")
        }
      }
      return folders.map { CanonicalRoot.of(PathBytes($0)) }
    }
    let file = try Pick.loadConfig(config, environment: environment)
    let roots = file?.libraryRoots?.map { PathBytes($0) } ?? [Pick.defaultFolder(environment: environment)]
    return roots.map(CanonicalRoot.of)
  }
}

/// "Indexing 12,340 of ~50,000 · 4,800/s [#####.....]" on one line of stderr.
private final class ProgressBar {
  private var last = Date.distantPast

  func show(_ progress: ScanProgress) {
    let now = Date()
    guard now.timeIntervalSince(last) > 0.1 else { return }
    last = now
    let fraction = progress.estimate > 0 ? min(1, Double(progress.done) / Double(progress.estimate)) : 0
    let width = 20
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    FileHandle.standardError.write(Data("\r\u{1B}[K\(progress.label) [\(bar)]".utf8))
  }

  func finish() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
}
