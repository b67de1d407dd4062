/// The part of TOML a picker config needs: comments, `key = value` with
/// strings (basic and literal, on one line or several), integers, floats,
/// booleans, arrays (over several lines too) and inline tables, `[table]`
/// and `[[array of tables]]`. Every value keeps its line, so the config can
/// say where a wrong one is.
///
/// Why not a TOML library: TOMLKit 0.6.0 (toml++ 3) fails an assertion,
/// ending the process, on invalid input as plain as `command = ["x", }]`,
/// and leaks on every parse. A typo in a config must be a message with a
/// line, never a crash; this parser is fuzzed for that (Fuzz/).
public enum TOMLSubset {
  public struct Value: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
      case string(String)
      case integer(Int)
      case float(Double)
      case bool(Bool)
      case array([Value])
      /// An inline table, `{ key = value, … }`.
      case table([Entry])
    }
    public var kind: Kind
    public var line: Int
  }

  public struct Entry: Hashable, Sendable {
    public var key: String
    public var value: Value
  }

  /// One `[table]` or `[[table]]` section (the top level has name "").
  public struct Table: Hashable, Sendable {
    public var name: String
    public var isArrayElement: Bool
    public var line: Int
    public var values: [(key: String, value: Value)] = []

    public static func == (a: Table, b: Table) -> Bool {
      a.name == b.name && a.line == b.line && a.values.map(\.key) == b.values.map(\.key)
        && a.values.map(\.value) == b.values.map(\.value)
    }
    public func hash(into hasher: inout Hasher) {
      hasher.combine(name)
      hasher.combine(line)
    }
  }

  public struct ParseError: Error, Hashable, Sendable {
    public var line: Int
    public var message: String
  }

  public static func parse(_ text: String) throws(ParseError) -> [Table] {
    // Split on scalars: "\r\n" is one Character, so a CRLF file (written on
    // Windows) would be one line; the CR before each newline is dropped.
    let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      Array(line.last == "\r" ? line.dropLast() : line[...])
    }
    var parser = Parser(lines: lines)
    return Self.liftingInlineTables(try parser.parse())
  }

  /// `sources = [{ … }, { … }]` at the top level is the same as two
  /// `[[sources]]` tables, and `name = { … }` as a `[name]` table: the
  /// config reads them one way.
  static func liftingInlineTables(_ tables: [Table]) -> [Table] {
    guard var top = tables.first else { return tables }
    var lifted: [Table] = []
    top.values.removeAll { entry in
      switch entry.value.kind {
      case .table(let entries):
        lifted.append(
          Table(
            name: entry.key, isArrayElement: false, line: entry.value.line, values: entries.map { ($0.key, $0.value) }))
        return true
      case .array(let elements)
      where !elements.isEmpty && elements.allSatisfy({ if case .table = $0.kind { true } else { false } }):
        for element in elements {
          guard case .table(let entries) = element.kind else { continue }
          lifted.append(
            Table(name: entry.key, isArrayElement: true, line: element.line, values: entries.map { ($0.key, $0.value) })
          )
        }
        return true
      default:
        return false
      }
    }
    return [top] + lifted + tables.dropFirst()
  }

  struct Parser {
    let lines: [[Unicode.Scalar]]
    var row = 0
    var column = 0

    init(lines: [[Unicode.Scalar]]) { self.lines = lines }

    var lineNumber: Int { row + 1 }
    var current: Unicode.Scalar? {
      guard row < lines.count, column < lines[row].count else { return nil }
      return lines[row][column]
    }

    func error(_ message: String) -> ParseError { ParseError(line: lineNumber, message: message) }

    mutating func skipSpaces() {
      while let c = current, c == " " || c == "\t" || c == "\r" { column += 1 }
    }

    /// Spaces, then a comment or the end of the line; anything else is an error.
    mutating func endOfLine() throws(ParseError) {
      skipSpaces()
      if let c = current, c != "#" { throw error("unexpected \"\(c)\" after the value") }
    }

    mutating func parse() throws(ParseError) -> [Table] {
      var tables = [Table(name: "", isArrayElement: false, line: 1)]
      var seenTables: Set<String> = []
      while row < lines.count {
        column = 0
        skipSpaces()
        guard let c = current, c != "#" else {
          row += 1
          continue
        }
        if c == "[" {
          let isArray = column + 1 < lines[row].count && lines[row][column + 1] == "["
          column += isArray ? 2 : 1
          skipSpaces()
          let name = try key()
          skipSpaces()
          for _ in 0..<(isArray ? 2 : 1) {
            guard current == "]" else { throw error("expected \"]\" after the table name") }
            column += 1
          }
          try endOfLine()
          if !isArray {
            guard seenTables.insert(name).inserted else { throw error("table [\(name)] appears twice") }
          }
          tables.append(Table(name: name, isArrayElement: isArray, line: lineNumber))
        } else {
          let line = lineNumber
          let name = try key()
          skipSpaces()
          guard current == "=" else { throw error("expected \"=\" after \(name)") }
          column += 1
          skipSpaces()
          var value = try self.value()
          value.line = line
          try endOfLine()
          if tables[tables.count - 1].values.contains(where: { $0.key == name }) {
            throw ParseError(line: line, message: "key \(name) appears twice in this table")
          }
          tables[tables.count - 1].values.append((name, value))
        }
        row += 1
      }
      return tables
    }

    mutating func key() throws(ParseError) -> String {
      if current == "\"" { return try basicString() }
      if current == "'" { return try literalString() }
      var name = ""
      while let c = current, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" || c == "." {
        name.unicodeScalars.append(c)
        column += 1
      }
      guard !name.isEmpty else { throw error("expected a key name") }
      return name
    }

    mutating func value() throws(ParseError) -> Value {
      let line = lineNumber
      guard let c = current else { throw error("expected a value") }
      switch c {
      case "\"" where startsTriple("\""): return Value(kind: .string(try multiLineString(literal: false)), line: line)
      case "'" where startsTriple("'"): return Value(kind: .string(try multiLineString(literal: true)), line: line)
      case "\"": return Value(kind: .string(try basicString()), line: line)
      case "'": return Value(kind: .string(try literalString()), line: line)
      case "[": return Value(kind: .array(try array()), line: line)
      case "{": return Value(kind: .table(try inlineTable()), line: line)
      default:
        var word = ""
        while let c = current, !" \t\r#,]}".unicodeScalars.contains(c) {
          word.unicodeScalars.append(c)
          column += 1
        }
        if word == "true" { return Value(kind: .bool(true), line: line) }
        if word == "false" { return Value(kind: .bool(false), line: line) }
        let digits = word.replacingOccurrences(of: "_", with: "")
        if let number = Int(digits) { return Value(kind: .integer(number), line: line) }
        if let number = Double(digits) { return Value(kind: .float(number), line: line) }
        throw error(word.isEmpty ? "expected a value" : "\(word) is not a value (strings need quotes)")
      }
    }

    mutating func basicString() throws(ParseError) -> String {
      column += 1
      var text = ""
      while let c = current {
        column += 1
        switch c {
        case "\"": return text
        case "\\":
          guard current != nil else { break }
          text.unicodeScalars.append(try escape())
        default: text.unicodeScalars.append(c)
        }
      }
      throw error("a string is not closed on its line")
    }

    /// The character an escape stands for; `current` is the one after the
    /// backslash.
    mutating func escape() throws(ParseError) -> Unicode.Scalar {
      guard let escaped = current else { throw error("a backslash ends the line") }
      column += 1
      switch escaped {
      case "n": return "\n"
      case "t": return "\t"
      case "r": return "\r"
      case "b": return "\u{08}"
      case "f": return "\u{0C}"
      case "\"": return "\""
      case "\\": return "\\"
      case "u", "U":
        let count = escaped == "u" ? 4 : 8
        guard column + count <= lines[row].count else { throw error("bad \\\(escaped) escape") }
        let hex = String(String.UnicodeScalarView(lines[row][column..<(column + count)]))
        guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
          throw error("bad \\\(escaped) escape")
        }
        column += count
        return scalar
      default: throw error("unknown escape \\\(escaped)")
      }
    }

    mutating func literalString() throws(ParseError) -> String {
      column += 1
      var text = ""
      while let c = current {
        column += 1
        if c == "'" { return text }
        text.unicodeScalars.append(c)
      }
      throw error("a string is not closed on its line")
    }

    /// `[a, b, …]`, possibly over several lines, with comments between.
    mutating func array() throws(ParseError) -> [Value] {
      column += 1
      var elements: [Value] = []
      while true {
        try skipBlankAndComments()
        if current == "]" {
          column += 1
          return elements
        }
        elements.append(try value())
        try skipBlankAndComments()
        if current == "," {
          column += 1
        } else if current != "]" {
          throw error("expected \",\" or \"]\" in the list")
        }
      }
    }

    mutating func skipBlankAndComments() throws(ParseError) {
      while true {
        skipSpaces()
        if current == nil || current == "#" {
          row += 1
          column = 0
          guard row < lines.count else {
            row -= 1
            throw error("a list is not closed")
          }
          continue
        }
        return
      }
    }
  }
}
