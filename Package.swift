// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "picker-tui",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "picker-tui", targets: ["picker-tui"]),
    // The picker for other Swift programs: sources in, picked items out.
    .library(name: "PickerTUI", targets: ["PickerTUI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // read, pread, write and poll, again when a signal interrupts them: the
    // one retry loop the C targets share.
    .target(name: "CSystemCalls"),
    // The ncursesw wide API plus shims for macros, globals, signals and
    // crash-restore. Only the terminal backend imports it.
    .target(
      name: "CNcurses",
      dependencies: ["CSystemCalls"],
      linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo", .when(platforms: [.linux]))]
    ),
    // libchafa and glib, found with pkg-config; only CImaging's C uses them.
    .systemLibrary(
      name: "CChafa", pkgConfig: "chafa",
      providers: [.apt(["libchafa-dev", "libglib2.0-dev"]), .brew(["chafa"])]
    ),
    // The image libraries behind entry points that return errors instead of
    // exiting or longjmp-ing: decoders, the PNG thumbnail writer, libchafa.
    // libheif, libjxl and LibRaw are not linked: they are opened when a
    // file needs them (optional_codecs.h), as libcurl is (optional_curl.h).
    .target(
      name: "CImaging",
      dependencies: ["CChafa", "CSystemCalls"],
      linkerSettings: [
        .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("webp"), .linkedLibrary("webpdemux"),
        .linkedLibrary("gif"), .linkedLibrary("lcms2"),
        .linkedLibrary("z"), .linkedLibrary("tiff"),
        .linkedLibrary("stb"),
      ]
    ),
    // libxml2 through pkg-config, for the WebDAV multistatus reader only.
    .systemLibrary(
      name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
    // libcurl (opened when first needed) behind one blocking request that never follows redirects
    // itself, and the multistatus reader.
    .target(name: "CNetworking", dependencies: ["CXML2", "CSystemCalls"]),
    // Stars, rejects and labels written as XMP with exempi (the Adobe XMP
    // Toolkit's C API), opened when the first verdict is written
    // (optional_exempi.h), not linked.
    .target(name: "CXMP", dependencies: ["CSystemCalls"]),
    // Debian's SQLite, for the library index of dates taken.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    // Everything that can be tested without a terminal, in layers: each
    // target sees only those below it, so the compiler refuses a cycle
    // (docs/layout.md). PickerCore, the top, re-exports them all.
    // Paths, geometry, keys, notices, text, decoding into pixels.
    .target(name: "PickerBase", dependencies: ["CImaging"]),
    // The screen as cells, thumbnails as symbols or images, the graphics
    // protocols, the input decoder.
    .target(name: "PickerTerminal", dependencies: ["PickerBase", "CImaging"]),
    // Local sources, the library index, places, stacks, facts, the selection.
    .target(name: "PickerLibrary", dependencies: ["PickerBase", "CImaging", "CSQLite", "CXMP"]),
    // The thumbnail pipeline, its caches and the loupe.
    .target(name: "PickerImaging", dependencies: ["PickerTerminal", "PickerLibrary", "CImaging"]),
    // Remote sources: HTTP, WebDAV, rclone, web services, command sources.
    .target(name: "PickerRemote", dependencies: ["PickerImaging", "CNetworking"]),
    // The app: its state and update, the grid, the modes, views, keys, config.
    .target(name: "PickerCore", dependencies: ["PickerRemote", "CImaging", "CNetworking"]),
    // The picker as a library: the terminal backend (the only code that
    // touches ncurses), the event loop, and the public `Picker` API.
    .target(name: "PickerTUI", dependencies: ["CNcurses", "CSystemCalls", "PickerCore"]),
    // The command: arguments, config, output and exit codes.
    .executableTarget(
      name: "picker-tui",
      dependencies: [
        "PickerTUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The benchmarks (`make bench`), apart from the shipped binary.
    .executableTarget(
      name: "picker-bench",
      dependencies: [
        "PickerTUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Encoders of formats the picker reads but never writes (WebP, GIF,
    // HEIC), for the tests' images: not linked into the shipped picker.
    .target(
      name: "CTestEncoders", dependencies: ["CImaging"],
      linkerSettings: [
        .linkedLibrary("webp"), .linkedLibrary("gif"), .linkedLibrary("heif"), .linkedLibrary("jpeg"),
      ]
    ),
    .target(name: "PickerTestSupport", dependencies: ["PickerCore", "CTestEncoders"]),
    .testTarget(
      name: "PickerCoreTests",
      dependencies: [
        "PickerBase", "PickerTerminal", "PickerLibrary", "PickerImaging", "PickerRemote", "PickerCore",
        "PickerTestSupport",
      ], exclude: ["Golden"]),
    .testTarget(name: "PickerTUITests", dependencies: ["PickerTUI"]),
  ],
  swiftLanguageModes: [.v6]
)
