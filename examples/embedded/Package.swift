// swift-tools-version:6.0
// A program that embeds the picker: it depends on picker-tui by path and
// uses its PickerTUI library product, with a photo source of its own.
import PackageDescription

let package = Package(
  name: "embedded-picker",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "picker-tui", path: "../..")],
  targets: [
    .executableTarget(
      name: "embedded-picker",
      dependencies: [.product(name: "PickerTUI", package: "picker-tui")]
    )
  ],
  swiftLanguageModes: [.v6]
)
