import ArgumentParser
import PickerTUI

/// `picker-tui [PATH ...]`: the picker itself, and its subcommands.
struct PickerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "picker-tui",
    abstract: "Pick photos in a grid of thumbnails; the picked paths go to stdout.",
    discussion: """
      Folders become browsable sources; files and paths piped on stdin form the
      Picked source. Exit status: 0 picked, 1 nothing to pick from, 2 error,
      130 cancelled.
      """,
    version: pickerVersion,
    subcommands: [Pick.self, PreviewCommand.self, ThumbnailCommand.self, IndexCommand.self, Doctor.self],
    defaultSubcommand: Pick.self)
}

/// Colour modes for --colors.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
  case auto, none
  case eight = "8"
  case sixteen = "16"
  case palette256 = "256"
  case truecolor

  /// nil for auto: the terminal and NO_COLOR decide.
  var depth: ColorDepth? {
    switch self {
    case .auto: return nil
    case .none: return ColorDepth.none
    case .eight: return .eight
    case .sixteen: return .sixteen
    case .palette256: return .palette256
    case .truecolor: return .truecolor
    }
  }
}

extension ThumbnailMode: ExpressibleByArgument {
  /// `on` is kept for older scripts: it means auto.
  public init?(argument: String) {
    if argument == "on" {
      self = .auto
      return
    }
    self.init(rawValue: argument)
  }
}
