// swift-tools-version:6.0
// libFuzzer harnesses for PickerCore's parsers; `make fuzz` builds and runs
// them (README.md here). A package of its own, so that nothing in it (the
// sanitizer flags especially) reaches the picker's build or `make test`.
//
// The main package has no library product, so `.package(path: "..")` could
// not import PickerCore without changing the main manifest. Instead
// Sources/Picker* (the layers), CImaging, CNetworking, CSystemCalls, CXMP and CChafa here are symlinks to
// the real folders: the same sources, compiled a second time with coverage
// instrumentation and AddressSanitizer. The C targets below repeat the main
// manifest's; keep them in step with it.
import PackageDescription

/// Coverage for libFuzzer plus ASan, on every Swift module a harness links:
/// without it on PickerCore the fuzzer would be blind to the parsers.
let instrumented: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

/// One executable per parser. Not `-parse-as-library` with libFuzzer's own
/// `main`: SwiftPM links executables with `--defsym main=<module>_main`, so
/// each harness has a main.swift that starts libFuzzer's driver itself.
func harness(_ name: String) -> Target {
  .executableTarget(
    name: name, dependencies: ["PickerCore", "FuzzSupport"], path: "Harnesses/\(name)",
    swiftSettings: instrumented,
    // lld, because gold warns about every ASan symbol it cannot export.
    linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])])
}

let package = Package(
  name: "picker-tui-fuzz",
  targets: [
    // LLVMFuzzerRunDriver's declaration (a header only; -sanitize=fuzzer links it).
    .systemLibrary(name: "CLibFuzzer"),
    .systemLibrary(name: "CChafa", pkgConfig: "chafa"),
    .target(name: "CSystemCalls", cSettings: [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]),
    .target(
      name: "CImaging",
      dependencies: ["CChafa", "CSystemCalls"],
      // Our C around the libraries (EXIF and TIFF header walks, chunk
      // searches, orientation, fitting) is instrumented too; the Debian
      // libraries themselves are not. libheif, libjxl and LibRaw are linked
      // here though the picker opens them when first needed: opening one
      // already loaded finds it.
      cSettings: [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])],
      linkerSettings: [
        .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("webp"), .linkedLibrary("webpdemux"),
        .linkedLibrary("gif"), .linkedLibrary("heif"), .linkedLibrary("lcms2"),
        .linkedLibrary("z"), .linkedLibrary("tiff"), .linkedLibrary("jxl"), .linkedLibrary("raw_r"),
        .linkedLibrary("stb"),
      ]
    ),
    .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0"),
    .target(
      name: "CNetworking", dependencies: ["CXML2", "CSystemCalls"],
      cSettings: [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])], linkerSettings: [.linkedLibrary("curl")]),
    .systemLibrary(name: "CSQLite"),
    .target(
      name: "CXMP", dependencies: ["CSystemCalls"], cSettings: [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]),
    // The picker's layers, as in the main manifest.
    .target(name: "PickerBase", dependencies: ["CImaging"], swiftSettings: instrumented),
    .target(name: "PickerTerminal", dependencies: ["PickerBase", "CImaging"], swiftSettings: instrumented),
    .target(
      name: "PickerLibrary", dependencies: ["PickerBase", "CImaging", "CSQLite", "CXMP"], swiftSettings: instrumented),
    .target(
      name: "PickerImaging", dependencies: ["PickerTerminal", "PickerLibrary", "CImaging"], swiftSettings: instrumented),
    .target(name: "PickerRemote", dependencies: ["PickerImaging", "CNetworking"], swiftSettings: instrumented),
    .target(
      name: "PickerCore", dependencies: ["PickerRemote", "CImaging", "CNetworking"], swiftSettings: instrumented),
    .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
    harness("fuzz-config"),
    harness("fuzz-jsonrpc"),
    harness("fuzz-web-listing"),
    harness("fuzz-input-decoder"),
    harness("fuzz-image-decoder"),
    harness("fuzz-dav-listing"),
    harness("fuzz-png-writer"),
    harness("fuzz-xmp-culling"),
  ],
  swiftLanguageModes: [.v6]
)
