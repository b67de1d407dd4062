/// Ends the process with a code and, for errors, a message on stderr.
struct PickerExit: Error {
  var code: Int32
  var message: String?
}
