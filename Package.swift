// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "picker-tui",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "picker-tui", targets: ["picker-tui"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // The ncursesw wide API plus shims for macros, globals, signals and
    // crash-restore. Only the terminal backend imports it.
    .target(
      name: "CNcurses",
      linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo", .when(platforms: [.linux]))]
    ),
    // Everything that can be tested without a terminal.
    .target(name: "PickerCore"),
    .executableTarget(
      name: "picker-tui",
      dependencies: [
        "CNcurses", "PickerCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "PickerCoreTests", dependencies: ["PickerCore"], exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
