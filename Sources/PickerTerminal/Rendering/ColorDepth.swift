/// How many colours the terminal shows; the view's colours are reduced to it.
public enum ColorDepth: String, CaseIterable, Hashable, Sendable {
  case none
  case eight = "8"
  case sixteen = "16"
  case palette256 = "256"
  case truecolor

  /// The depth for a terminal reporting `colors` colours.
  public static func forTerminal(colors: Int) -> ColorDepth {
    switch colors {
    case ..<8: return .none
    case 8..<16: return .eight
    case 16..<256: return .sixteen
    case 256..<0x100_0000: return .palette256
    default: return .truecolor
    }
  }
}

extension TermColor {
  /// This colour as the given depth can show it; nil for monochrome.
  public func reduced(to depth: ColorDepth) -> TermColor? {
    switch (self, depth) {
    case (_, .none): return nil
    case (.default, _): return .default
    case (.palette(let index), .truecolor), (.palette(let index), .palette256):
      return .palette(index)
    case (.palette(let index), .sixteen):
      return .palette(index < 16 ? index : TermColor.nearestANSI(TermColor.paletteRGB(index), count: 16))
    case (.palette(let index), .eight):
      let sixteen = index < 16 ? index : TermColor.nearestANSI(TermColor.paletteRGB(index), count: 16)
      // Bright black (grey) folded to black would vanish on a dark terminal.
      return sixteen == 8 ? .default : .palette(sixteen % 8)
    case (.rgb, .truecolor): return self
    case (.rgb(let value), .palette256): return .palette(TermColor.nearest256(value))
    case (.rgb(let value), .sixteen): return .palette(TermColor.nearestANSI(value, count: 16))
    case (.rgb(let value), .eight): return .palette(TermColor.nearestANSI(value, count: 8))
    }
  }

  /// The usual xterm values of the 16 ANSI colours.
  static let ansiRGB: [UInt32] = [
    0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
    0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
  ]

  /// The RGB value of a palette colour, as xterm shows it.
  public static func paletteRGB(_ index: UInt8) -> UInt32 {
    let i = Int(index)
    if i < 16 { return ansiRGB[i] }
    if i >= 232 {
      let level = UInt32(8 + (i - 232) * 10)
      return level << 16 | level << 8 | level
    }
    let steps: [UInt32] = [0, 95, 135, 175, 215, 255]
    let cube = i - 16
    return steps[cube / 36] << 16 | steps[(cube / 6) % 6] << 8 | steps[cube % 6]
  }

  static func nearestANSI(_ rgb: UInt32, count: Int) -> UInt8 {
    var best = 0
    var bestDistance = Int.max
    for index in 0..<count {
      let distance = distanceSquared(rgb, ansiRGB[index])
      if distance < bestDistance {
        best = index
        bestDistance = distance
      }
    }
    return UInt8(best)
  }

  static func nearest256(_ rgb: UInt32) -> UInt8 {
    let r = Int(rgb >> 16 & 0xFF)
    let g = Int(rgb >> 8 & 0xFF)
    let b = Int(rgb & 0xFF)
    func cubeStep(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
    let cubeIndex = 16 + 36 * cubeStep(r) + 6 * cubeStep(g) + cubeStep(b)
    let grey = (r + g + b) / 3
    let greyIndex = 232 + min(23, max(0, (grey - 3) / 10))
    let cubeDistance = distanceSquared(rgb, paletteRGB(UInt8(cubeIndex)))
    let greyDistance = distanceSquared(rgb, paletteRGB(UInt8(greyIndex)))
    return UInt8(cubeDistance <= greyDistance ? cubeIndex : greyIndex)
  }

  private static func distanceSquared(_ a: UInt32, _ b: UInt32) -> Int {
    let dr = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
    let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
    let db = Int(a & 0xFF) - Int(b & 0xFF)
    return dr * dr + dg * dg + db * db
  }
}
