import Foundation

/// Place names as searched: case and accents folded, so `sao paulo`
/// finds São Paulo and `zurich` Zürich.
public enum PlaceText {
  public static func folded(_ text: String) -> String {
    var folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    // Letters that are not a base letter with a mark: folding leaves them.
    for (letter, plain) in [("ß", "ss"), ("ø", "o"), ("æ", "ae"), ("œ", "oe"), ("ł", "l"), ("đ", "d"), ("ı", "i")] {
      folded = folded.replacingOccurrences(of: letter, with: plain)
    }
    return folded.trimmingCharacters(in: .whitespaces)
  }
}
