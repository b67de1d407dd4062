/// The parts of TOML that span more than a token: strings over several
/// lines and inline tables.
extension TOMLSubset.Parser {
  /// `"""` or `'''` (the quote given) starts here.
  func startsTriple(_ quote: Unicode.Scalar) -> Bool {
    guard row < lines.count, column + 2 < lines[row].count else { return false }
    return lines[row][column] == quote && lines[row][column + 1] == quote && lines[row][column + 2] == quote
  }

  /// `"""…"""` (escapes as in basic strings; a backslash at the end of a
  /// line joins it to the next, without the blank that follows) or
  /// `'''…'''` (as written). A newline right after the opening quotes is
  /// not part of the string.
  mutating func multiLineString(literal: Bool) throws(TOMLSubset.ParseError) -> String {
    let quote: Unicode.Scalar = literal ? "'" : "\""
    let start = lineNumber
    column += 3
    var text = ""
    var isFirstLine = true
    while row < lines.count {
      while let c = current {
        if startsTriple(quote) {
          column += 3
          // Up to two more quotes just before the closing ones belong to
          // the string (`""""` ends with one quote in it).
          for _ in 0..<2 where current == quote {
            text.unicodeScalars.append(quote)
            column += 1
          }
          return text
        }
        column += 1
        if c == "\\" && !literal {
          if current == nil || lines[row][column...].allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
            // A line-ending backslash: the newline and the blank after it go.
            column = lines[row].count
            try skipToNextContent(quote: quote, since: start)
            isFirstLine = false
            continue
          }
          text.unicodeScalars.append(try escape())
          continue
        }
        text.unicodeScalars.append(c)
      }
      row += 1
      column = 0
      guard row < lines.count else { break }
      if !(isFirstLine && text.isEmpty) { text += "\n" }
      isFirstLine = false
    }
    throw TOMLSubset.ParseError(line: start, message: "a multi-line string is not closed")
  }

  /// After a line-ending backslash: on to the next character that is not
  /// blank, over as many lines as it takes.
  private mutating func skipToNextContent(quote: Unicode.Scalar, since start: Int) throws(TOMLSubset.ParseError) {
    while true {
      while let c = current, c == " " || c == "\t" || c == "\r" { column += 1 }
      if current != nil { return }
      row += 1
      column = 0
      guard row < lines.count else {
        throw TOMLSubset.ParseError(line: start, message: "a multi-line string is not closed")
      }
    }
  }

  /// `{ key = value, … }`, on one line as TOML wants it.
  mutating func inlineTable() throws(TOMLSubset.ParseError) -> [TOMLSubset.Entry] {
    column += 1
    var entries: [TOMLSubset.Entry] = []
    skipSpaces()
    if current == "}" {
      column += 1
      return entries
    }
    while true {
      skipSpaces()
      guard current != nil else { throw error("an inline table is not closed on its line") }
      let name = try key()
      skipSpaces()
      guard current == "=" else { throw error("expected \"=\" after \(name)") }
      column += 1
      skipSpaces()
      guard current != nil else { throw error("expected a value") }
      var value = try self.value()
      value.line = lineNumber
      if entries.contains(where: { $0.key == name }) { throw error("key \(name) appears twice in this table") }
      entries.append(TOMLSubset.Entry(key: name, value: value))
      skipSpaces()
      switch current {
      case ","?: column += 1
      case "}"?:
        column += 1
        return entries
      default: throw error("expected \",\" or \"}\" in the inline table")
      }
    }
  }
}
