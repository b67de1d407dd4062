import ArgumentParser
import Foundation
import PickerTUI

/// The picker: browse, pick, print.
struct Pick: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pick", abstract: "Open the picker (the default command).")

  @Argument(help: "Folders to browse and photo files to offer (default: ~/Pictures, else .).")
  var paths: [String] = []

  @Flag(name: [.customShort("0"), .long], help: "Separate printed paths with NUL instead of newline.")
  var print0 = false

  @Option(
    help: ArgumentHelp(
      "How each pick is printed: paths (the default), json (one object a line), or a template such as '{path}\\t{taken}'.",
      discussion:
        "Fields: \(PickFormat.fieldNames.joined(separator: ", ")). They come from the listing and the library index: no file is read again."
    ))
  var format: String?

  @Option(
    help: ArgumentHelp(
      "Write the chosen absolute paths to FILE, one a line, and nothing on stdout (the desktop's file chooser).",
      discussion: "FILE is emptied first: empty after a cancel. See share/picker-tui/termfilechooser-wrapper.sh.",
      valueName: "FILE"))
  var chooserFile: String?

  @Flag(help: "Choose a folder: Enter on a folder (or on a photo: its folder) chooses it, Space opens it.")
  var chooseFolder = false

  @Flag(help: "Paths on stdin are NUL-separated.")
  var read0 = false

  @Option(help: "Pick at most N photos.")
  var max: Int?

  @Option(help: "Refuse to confirm fewer than N photos.")
  var min: Int?

  @Option(help: "The source to show first, by name or number.")
  var source: String?

  @Option(help: "Colours: auto, none, 8, 16, 256 or truecolor (NO_COLOR is honoured).")
  var colors: ColorChoice = .auto

  @Option(help: "Items per page (rounded up to whole grid rows).")
  var pageSize: Int?

  @Option(
    help: ArgumentHelp(
      "Thumbnails: auto, kitty, sixel, iterm2, symbols, or off for captions only.",
      discussion: "auto draws pixels where the terminal says it can, else block symbols."))
  var thumbnails: ThumbnailMode?

  @Option(help: "The config file (default: $XDG_CONFIG_HOME/picker-tui/config.toml).")
  var config: String?

  @Option(help: "Where picked remote photos are downloaded (default: $XDG_CACHE_HOME/picker-tui/picked).")
  var downloadDir: String?

  @Flag(help: "Print the URLs of picked remote photos instead of downloading them.")
  var printUrls = false

  @Flag(help: "Restore the picks of a run that did not finish (cancelled, hung up, killed, crashed).")
  var resume = false

  @Flag(
    help: ArgumentHelp(
      "Open on Photos: every photo under the folders, newest first by date taken, grouped by day.",
      discussion: "With no folder, the [library] roots of the config, else the pictures folder."))
  var timeline = false

  @Option(help: "Photos taken on or after DATE (2024, 2024-06, 2024-06-01, jun 2024); implies --timeline.")
  var since: String?

  @Option(help: "Photos taken on or before DATE (same forms); implies --timeline.")
  var until: String?

  @Option(
    name: .customLong("place"),
    help: ArgumentHelp(
      "Photos taken in a place whose city, region or country holds NAME (lisbon, portugal, sao paulo); implies --timeline.",
      discussion: "Repeat it for several places."))
  var places: [String] = []

  @Option(
    name: .customLong("min-rating"),
    help: "Photos with at least N stars (1-5; 0 keeps all but rejected ones), as rated in XMP; implies --timeline.")
  var minRating: Int?

  @Option(
    name: .customLong("label"),
    help: ArgumentHelp(
      "Photos with the colour label NAME (red, yellow, green, blue, purple); implies --timeline.",
      discussion: "Repeat it for any of several labels."))
  var labels: [String] = []

  /// What --min-rating and --label keep.
  var cullingFilter: CullingFilter {
    var filter = CullingFilter()
    filter.minRating = minRating
    filter.labels = Set(labels.compactMap(ColorLabel.init(name:)))
    return filter
  }

  @Option(
    help: ArgumentHelp(
      "Only these kinds of file: photos, videos, live or raw (the search words video, photo, live, raw).",
      discussion: "Repeat it for any of several kinds."))
  var only: [String] = []

  /// What --only keeps.
  var kindFilter: KindFilter { KindFilter(wanted: Set(only.compactMap(KindFilter.Kind.init(word:)))) }

  @Flag(help: "Print a picked Live Photo's video (its MOV) on the line after the photo.")
  var liveVideos = false

  func validate() throws {
    if let format {
      do { _ = try PickFormat.parse(format) } catch { throw ValidationError(String(describing: error)) }
    }
    if let max, max < 1 { throw ValidationError("--max must be at least 1") }
    if let min, min < 1 { throw ValidationError("--min must be at least 1") }
    if let max, let min, min > max { throw ValidationError("--min \(min) is more than --max \(max)") }
    if let pageSize, !(1...10_000).contains(pageSize) {
      throw ValidationError("--page-size must be from 1 to 10000")
    }
    if let minRating, !(0...5).contains(minRating) { throw ValidationError("--min-rating must be from 0 to 5") }
    for kind in only where KindFilter.Kind(word: kind) == nil {
      throw ValidationError("--only \(kind): not a kind (photos, videos, live, raw)")
    }
    for label in labels where ColorLabel(name: label) == nil {
      throw ValidationError(
        "--label \(label): not a label (\(ColorLabel.allCases.map(\.name).joined(separator: ", ")))")
    }
    let today = PhotoMetadataReader.latestBelievableDay() - 1
    for (name, value) in [("--since", since), ("--until", until)] {
      if let value, DateQuery.parse(value, today: today) == nil {
        throw ValidationError("\(name) \(value): not a date (try 2024, 2024-06, 2024-06-01, jun 2024)")
      }
    }
    // A reversed range would show nothing, or worse, a script would get
    // picks from outside it: an error, as a range of numbers would be.
    if let since, let until, let first = DateQuery.parse(since, today: today)?.lowerBound,
      let last = DateQuery.parse(until, today: today)?.upperBound, last < first
    {
      throw ValidationError("--until \(until) is before --since \(since)")
    }
  }

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let log = LogFile.forCurrentUser(environment: environment)
    let file = try loadConfig(environment: environment)
    PlaceData.use(file?.placeCorrections ?? PlaceCorrections())
    let (sources, onDefaultFolder) = try makeSources(environment: environment, log: log, config: file)
    let journal = JournalFile.forCurrentUser(environment: environment)
    // Emptied before anything can fail: the desktop reads an empty file as a cancel.
    if let chooserFile, !FileManager.default.createFile(atPath: chooserFile, contents: nil) {
      throw PickerExit(code: 2, message: "cannot write the chooser's file \(chooserFile)")
    }
    var options = PickerOptions()
    options.maximum = max
    options.minimum = min
    options.pageSize = pageSize
    options.colors = colors.depth
    // The command line wins over the config file.
    options.thumbnails = thumbnails ?? file?.thumbnails ?? .auto
    options.startingSource = try initialSource(among: sources)
    // A range asked for is kept on screen even when nothing is in it:
    // another tab would offer photos outside it.
    options.keepsStartingSource =
      source != nil || since != nil || until != nil || !places.isEmpty || !cullingFilter.isEmpty
    options.printsLines = !print0
    options.remotePicks = printUrls ? .urlsOnly : .download(into: downloadDir)
    options.cameraRAW = .helper(executable: "/proc/self/exe")
    options.environment = environment
    options.messagesDescriptor = log?.descriptor
    options.journal = journal
    options.searchHistory = SearchHistoryFile.forCurrentUser(environment: environment)
    options.sourceIcons = iconsByID(file, sources: sources)
    options.resumesJournal = resume
    options.keys = KeyMaps.standard(with: file?.keys ?? [])
    options.stacksPhotos = file?.stacksPhotos ?? true
    options.stackingRule = file?.stackingRule ?? StackingRule()
    options.xmp = file?.xmp ?? XMPWriteOptions()
    options.choosesFolders = chooseFolder
    let result: PickResult
    do {
      result = try Picker(sources: sources, options: options).run()
    } catch {
      throw PickerExit(code: 2, message: error.description)
    }
    switch result {
    case .picked(let items):
      try output(items, config: file, journal: journal, environment: environment)
    case .cancelled:
      throw PickerExit(code: 130, message: nil)
    case .nothingToPick:
      let message =
        onDefaultFolder
        ? Self.nothingInDefaultLibrary(environment: environment)
        : Self.nothingToPick(skippedFolders: sources)
      throw PickerExit(code: 1, message: message)
    case .interrupted(let signal):
      throw PickerExit(code: 128 + signal, message: nil)
    }
  }

  /// Folder sources in argument order, then the Picked source when there are
  /// file arguments or a stdin that is not a terminal, then the config's
  /// sources; with none of these, the pictures folder (`onDefaultFolder`:
  /// a first run that finds nothing says where it looked).
  private func makeSources(environment: [String: String], log: LogFile?, config file: ConfigFile?) throws
    -> (sources: [any PhotoSource], onDefaultFolder: Bool)
  {
    let arguments = PathArguments(paths)
    var sources: [any PhotoSource] = []
    // A closed stdin (`<&-`) is no list of paths.
    let readsStdin = isatty(0) == 0 && !closedAtStart.contains(0)
    let noArguments = paths.isEmpty && !readsStdin
    // A folder chooser browses folders: the pictures folder, not Photos.
    if (noArguments && !chooseFolder) || timeline || since != nil || until != nil || !places.isEmpty
      || !cullingFilter.isEmpty
      || (file?.opensPhotos == true && arguments.files.isEmpty && !readsStdin)
    {
      return try timelineSources(arguments: arguments, environment: environment, log: log, config: file)
    }
    let titles = arguments.folderTitles()
    for (folder, title) in zip(arguments.folders, titles) {
      sources.append(FolderSource(root: folder, title: title, stackingGap: Self.stackingGap(file), kinds: kindFilter))
    }
    if !readsStdin, let reason = arguments.noneExists() { throw PickerExit(code: 2, message: reason) }
    if !arguments.files.isEmpty || readsStdin {
      // Folders on stdin are skipped, not listed as albums: `find dir`
      // names dir itself, and as an album it would offer everything twice.
      let stream = PathStream(paths: arguments.files, skipsFolders: readsStdin)
      if readsStdin {
        PathReader.start(descriptor: 0, separator: read0 ? 0 : UInt8(ascii: "\n"), into: stream)
      } else {
        stream.finish()
      }
      sources.append(GivenPathsSource(stream: stream))
    }
    sources += configuredSources(file, environment: environment, log: log)
    guard sources.isEmpty else { return (sources, false) }
    let folder = FolderSource(
      root: Self.defaultFolder(environment: environment), stackingGap: Self.stackingGap(file), kinds: kindFilter)
    return ([folder], true)
  }

  /// Photos first (the timeline of the folders given, else of the
  /// library roots), then a Folders tab per root, then the config's sources.
  private func timelineSources(
    arguments: PathArguments, environment: [String: String], log: LogFile?, config file: ConfigFile?
  ) throws -> (sources: [any PhotoSource], onDefaultFolder: Bool) {
    if let reason = arguments.noneExists() { throw PickerExit(code: 2, message: reason) }
    // Photos are of folders: a file here would be dropped and the current
    // folder indexed instead.
    if let file = arguments.files.first {
      throw PickerExit(
        code: 2, message: "not a folder: \(Sanitizer.sanitize(file.bytes)) (Photos shows the photos under folders)")
    }
    let configured = arguments.folders.isEmpty ? file?.libraryRoots?.map { PathBytes($0) } : arguments.folders
    let roots = configured ?? [Self.defaultFolder(environment: environment)]
    // The index keeps absolute roots, links resolved: the same rows
    // whichever folder the picker is started from.
    let libraryRoots = roots.map(CanonicalRoot.of)
    let index = LibraryIndex(path: LibraryIndex.defaultPath(environment: environment))
    if let notice = index.notice { FileHandle.standardError.write(Data("picker-tui: \(notice)\n".utf8)) }
    let today = PhotoMetadataReader.latestBelievableDay() - 1
    let photos = TimelineSource(
      index: index, roots: libraryRoots, firstDay: since.flatMap { DateQuery.parse($0, today: today)?.lowerBound },
      lastDay: until.flatMap { DateQuery.parse($0, today: today)?.upperBound }, places: places,
      culling: cullingFilter, kinds: kindFilter)
    photos.stackingGap = Self.stackingGap(file)
    photos.startScanning()
    // One root is "Folders"; several are told apart by their last names.
    let titles =
      roots.count == 1
      ? ["Folders"]
      : roots.map { String(decoding: $0.bytes.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self) }
    let folders: [any PhotoSource] = zip(roots, titles).map {
      FolderSource(root: $0, title: $1, stackingGap: Self.stackingGap(file), kinds: kindFilter, index: index)
    }
    return ([photos] + folders + configuredSources(file, environment: environment, log: log), configured == nil)
  }

  /// The config's icons, keyed by the id of the source each names.
  private func iconsByID(_ file: ConfigFile?, sources: [any PhotoSource]) -> [String: String] {
    guard let file, !file.icons.isEmpty else { return [:] }
    var icons: [String: String] = [:]
    // The config's sources come last, in the file's order.
    for (entry, source) in zip(file.sources, sources.suffix(file.sources.count)) {
      if let icon = file.icons[entry.name] { icons[source.id] = icon }
    }
    return icons
  }

  private func loadConfig(environment: [String: String]) throws -> ConfigFile? {
    try Self.loadConfig(config, environment: environment)
  }

  /// The config file (`--config`, else the default place), nil when there
  /// is none; an error in it ends the run.
  static func loadConfig(_ path: String?, environment: [String: String]) throws -> ConfigFile? {
    let home = environment["HOME"] ?? NSHomeDirectory()
    do {
      return try ConfigFile.load(
        path: path ?? ConfigFile.defaultPath(environment: environment), required: path != nil, home: home)
    } catch {
      throw PickerExit(code: 2, message: error.description)
    }
  }

  private func configuredSources(_ file: ConfigFile?, environment: [String: String], log: LogFile?)
    -> [any PhotoSource]
  {
    let credentials = CredentialStore.forCurrentUser(environment: environment)
    return (file?.sources ?? []).map { entry -> any PhotoSource in
      switch entry {
      case .web(let name, let url, let auth, let timeout):
        return WebSource(title: name, url: url, auth: auth, timeout: timeout, credentials: credentials)
      case .webdav(let name, let url, let auth, let timeout):
        return WebDAVSource(title: name, url: url, auth: auth, timeout: timeout, credentials: credentials)
      case .rclone(let name, let remote, let executable, let timeout):
        return RcloneSource(title: name, remote: remote, executable: executable, timeout: timeout, log: log)
      case .command(let name, let command, let timeout):
        return CommandSource(title: name, command: command, timeout: timeout, credentials: credentials, log: log)
      case .folder(let name, let path):
        return FolderSource(root: PathBytes(path), title: name, stackingGap: Self.stackingGap(file))
      }
    }
  }

  /// How far apart photos may be taken and still stack: their signatures
  /// are read (even with stacks off in the config: `S` may turn them on).
  static func stackingGap(_ file: ConfigFile?) -> Double {
    (file?.stackingRule ?? StackingRule()).maxGap
  }

  /// --source by number or name; otherwise Picked when present, else the first.
  private func initialSource(among sources: [any PhotoSource]) throws -> Int {
    if let source {
      if let number = Int(source), sources.indices.contains(number - 1) { return number - 1 }
      if let index = sources.firstIndex(where: { $0.title.lowercased() == source.lowercased() }) {
        return index
      }
      let names = sources.map(\.title).joined(separator: ", ")
      throw PickerExit(code: 2, message: "no source named '\(source)' (sources: \(names))")
    }
    return sources.firstIndex { $0 is GivenPathsSource } ?? 0
  }
}
