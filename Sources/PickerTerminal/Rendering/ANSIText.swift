/// Cells as plain ANSI text, for programs that show our output in a pane
/// of their own (fzf's and lf's previews): one line per row, SGR colours.
public enum ANSIText {
  public static func lines(_ cells: CellImage) -> [UInt8] {
    var out: [UInt8] = []
    for row in 0..<cells.rows {
      for column in 0..<cells.columns {
        let glyph = cells[column, row]
        out += Array(sgr(cells.color(glyph.foreground), foreground: true).utf8)
        out += Array(sgr(cells.color(glyph.background), foreground: false).utf8)
        let scalar = Unicode.Scalar(glyph.scalar).map { String(Character($0)) } ?? " "
        out += Array(scalar.utf8)
      }
      out += Array("\u{1B}[0m\n".utf8)
    }
    return out
  }

  static func sgr(_ color: TermColor, foreground: Bool) -> String {
    switch color {
    case .default: return foreground ? "\u{1B}[39m" : "\u{1B}[49m"
    case .palette(let index): return "\u{1B}[\(foreground ? 38 : 48);5;\(index)m"
    case .rgb(let value):
      return "\u{1B}[\(foreground ? 38 : 48);2;\(value >> 16 & 0xFF);\(value >> 8 & 0xFF);\(value & 0xFF)m"
    }
  }
}
