import CNcurses
import PickerCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pictures on their way to the tty, apart from the frame's text: written
/// as the terminal reads them, and brought to an end before the screen is
/// left (the picker's end, Ctrl-Z). No curses call here: only the tty.
extension NcursesTerminal {
  package var pendingOutputDescriptor: Int32? {
    guard pictures.canWrite(now: MonotonicClock.now) else { return nil }
    let descriptor = pk_tty_fd()
    return descriptor >= 0 ? descriptor : nil
  }

  package func writePending() {
    // Ending on a signal: nothing more goes to a terminal that may be the shell's.
    guard pk_signal_pending() == 0 else { return }
    pictures.pump(now: MonotonicClock.now) { bytes in
      bytes.withUnsafeBufferPointer { Int(pk_write_tty_available($0.baseAddress, UInt($0.count))) }
    }
  }

  /// Before the screen is left: a picture half sent would swallow what the
  /// shell prints next, answers still out would land at its prompt, and
  /// kitty would keep our pictures.
  func leavePictures() {
    let (ending, undelivered) = pictures.drain()
    writer?.undelivered(undelivered)
    if !ending.isEmpty { _ = ending.withUnsafeBufferPointer { pk_write_tty($0.baseAddress, UInt($0.count)) } }
    awaitAnswers()
    if let bytes = writer?.clear(), !bytes.isEmpty {
      _ = bytes.withUnsafeBufferPointer { pk_write_tty($0.baseAddress, UInt($0.count)) }
    }
  }

  /// Answers to questions still out would reach the shell after the
  /// picker ends (`62;22c` at the prompt): they are read here, a short
  /// while at most, and dropped with anything typed meanwhile.
  private func awaitAnswers() {
    guard var awaited = pictures.flow?.answersAwaited, awaited > 0 else { return }
    let end = MonotonicClock.now + 0.3
    var buffer = [UInt8](repeating: 0, count: 4096)
    while awaited > 0, MonotonicClock.now < end {
      var ready = pollfd(fd: pk_tty_fd(), events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, Int32(max(1, (end - MonotonicClock.now) * 1000))) > 0 else { continue }
      let count = buffer.withUnsafeMutableBufferPointer { pk_read_input($0.baseAddress, UInt($0.count)) }
      guard count > 0 else { break }
      let before = input.attributeReplies
      _ = input.read(Array(buffer[0..<count]))
      for _ in before..<input.attributeReplies { pictures.answered(now: MonotonicClock.now) }
      awaited -= input.attributeReplies - before
    }
    // Those that did not come in time are late, not lost: after a Ctrl-Z
    // they must not count as a terminal that stopped answering.
    pictures.flow?.stopWaiting()
  }
}
