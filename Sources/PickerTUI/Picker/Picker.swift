@_exported import PickerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The photo picker, for Swift programs that want one without spawning a
/// process: give it sources, run it, get back what the user picked.
///
///     let picker = Picker(sources: [FolderSource(root: PathBytes("/home/me/Pictures"))])
///     switch try picker.run() {
///     case .picked(let items): for item in items { print(item.path?.lossyString ?? item.url ?? "") }
///     case .cancelled, .nothingToPick, .interrupted: break
///     }
///
/// `run()` draws on the controlling terminal (/dev/tty), so standard input
/// and output stay the host's. It blocks the calling thread, which must be
/// the only one touching the terminal, until the user confirms or cancels.
///
/// What it leaves as it found: the terminal (on every return and throw), the
/// locale, standard error (libraries' messages are diverted while the screen
/// is up), and the signal handlers. While it runs it catches the signals
/// that would end the process (so that the terminal is restored first:
/// ``PickResult/interrupted(signal:)``), and crashes (to restore the terminal,
/// then crash as before). It never calls `exit`.
public struct Picker {
  public var sources: [any PhotoSource]
  public var options: PickerOptions

  public init(sources: [any PhotoSource], options: PickerOptions = PickerOptions()) {
    self.sources = sources
    self.options = options
  }

  /// The argument that starts the executable as a camera RAW helper
  /// (``PickerOptions/CameraRAW/helper(executable:)``).
  public static let helperArgument = RawIsolation.helperArgument

  /// Call first thing in `main` of a host that passes
  /// `.helper(executable: "/proc/self/exe")`: when this process was started
  /// as a RAW helper it does that work and returns the exit status to end
  /// with; otherwise it returns nil at once.
  public static func runHelperIfAsked() -> Int32? { RawIsolation.runHelperIfAsked() }

  /// Shows the picker until the user confirms or cancels.
  ///
  /// - Throws: ``PickerError`` when the picker cannot start; the terminal is
  ///   then untouched.
  public func run() throws(PickerError) -> PickResult {
    guard !sources.isEmpty else { throw .noSources }
    if let index = options.startingSource, !sources.indices.contains(index) { throw .noSuchSource(index) }
    let process = ProcessState.save()
    defer { process.restore() }
    switch options.cameraRAW {
    case .off: RawIsolation.turnOff()
    case .helper(let executable): RawIsolation.isolate(executable: executable)
    }
    let terminal: NcursesTerminal
    do {
      terminal = try NcursesTerminal(
        requested: options.colors, environment: options.environment, thumbnails: options.thumbnails,
        libraryMessages: options.messagesDescriptor)
    } catch {
      throw .terminal(String(describing: error))
    }
    let session = PickerSession(sources: sources, options: options, terminal: terminal)
    let end = session.run()
    return session.result(of: end)
  }
}

/// The process-wide settings the picker changes while it runs, put back
/// when it returns: the locale (ncurses needs a UTF-8 one), the signal
/// handlers, and no RAW helper servers left running.
private struct ProcessState {
  var locale: String?

  static func save() -> ProcessState {
    ProcessState(locale: setlocale(LC_ALL, nil).map { String(cString: $0) })
  }

  func restore() {
    NcursesTerminal.restoreSignalHandlers()
    RawIsolation.endHelpers()
    if let locale { setlocale(LC_ALL, locale) }
  }
}
