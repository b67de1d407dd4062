import Foundation

/// Descriptors 0-2 closed at start are given /dev/null at once, before
/// anything else opens a file: otherwise the next file opened (the tty, the
/// log) would become "stdout", and the picked paths would be written into
/// it. Which of them were closed is remembered: a closed stdin is no list of
/// paths, and a closed stdout makes confirming an error.
enum StandardDescriptors {
  /// The descriptors that were closed when the process started.
  static func occupyClosed() -> Set<Int32> {
    var closed: Set<Int32> = []
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      closed.insert(descriptor)
      let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if opened >= 0 && opened != descriptor {
        dup2(opened, descriptor)
        close(opened)
      }
    }
    return closed
  }

  /// Runs `body` with stderr on /dev/null: image libraries print there on
  /// damaged files (libjxl's failures, dav1d's "Error parsing OBU data"),
  /// and the one-shot commands promise one line of their own. The
  /// interactive picker sends the same messages to its log instead.
  static func silencingLibraryMessages<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    if saved >= 0 && null >= 0 { dup2(null, 2) }
    if null >= 0 { close(null) }
    defer {
      if saved >= 0 {
        dup2(saved, 2)
        close(saved)
      }
    }
    return try body()
  }
}
