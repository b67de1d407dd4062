import CXMP
import Foundation

/// How the config's `[xmp]` table says verdicts are written.
public struct XMPWriteOptions: Hashable, Sendable {
  /// The name a new sidecar gets (an existing one, either name, is always
  /// the one written).
  public enum SidecarNaming: String, Hashable, Sendable, CaseIterable {
    /// `IMG_0001.CR2.xmp`: darktable, digiKam; Immich prefers it.
    case darktable
    /// `IMG_0001.xmp`: Lightroom, Capture One, FastRawViewer.
    case adobe
    case both
  }
  public var sidecar = SidecarNaming.darktable
  /// Also into the XMP inside a JPEG (Lightroom reads no JPEG sidecar):
  /// off by default, as it rewrites the photo.
  public var embed = false

  public init(sidecar: SidecarNaming = .darktable, embed: Bool = false) {
    self.sidecar = sidecar
    self.embed = embed
  }
}

/// Writes verdicts as XMP with exempi (the Adobe XMP Toolkit's C API),
/// property by property against what is on disk at the time of writing,
/// each file replaced atomically (`xmp_sidecar.h`).
public enum XMPWriter {
  public struct Outcome: Hashable, Sendable {
    /// The files written.
    public var written: [PathBytes] = []
    /// Why a file could not be written, for the user.
    public var problem: String?
  }

  /// Whether exempi could be opened; else why not.
  public static func availability() -> String? {
    var error = [CChar](repeating: 0, count: 256)
    return pk_xmp_available(&error, error.count) == 1 ? nil : text(error)
  }

  /// Writes `change` for the photo at `photo`: into every sidecar it has
  /// (`IMG.CR2.xmp`, `IMG.xmp`), else a new one named as `options` say;
  /// with `embed`, into a JPEG itself instead of a new sidecar.
  /// A new sidecar gets the whole `verdict` (the photo's own stars with a
  /// label given here), so every program reading it sees all of it.
  public static func write(
    _ change: CullingChange, verdict: Culling, for photo: PathBytes, options: XMPWriteOptions
  ) -> Outcome {
    var outcome = Outcome()
    var (targets, sharesStem) = existingSidecars(of: photo)
    let embeds = options.embed && isJPEG(photo)
    var change = change
    if targets.isEmpty && !embeds {
      targets = newSidecars(of: photo, naming: options.sidecar, sharesStem: sharesStem)
      change = CullingChange(culling: verdict, setsRating: true, setsLabel: true)
    }
    var xmpChange = pk_xmp_change(
      set_rating: change.setsRating ? 1 : 0, rating: Int32(change.culling.rating),
      set_label: change.setsLabel ? 1 : 0, label: Int32(change.culling.label?.rawValue ?? 0))
    var error = [CChar](repeating: 0, count: 512)
    func run(_ path: PathBytes, _ body: (UnsafePointer<CChar>) -> Int32) {
      let status = (path.bytes + [0]).withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
      }
      if status == 0 {
        outcome.written.append(path)
      } else if outcome.problem == nil {
        outcome.problem = Sanitizer.sanitize(Array(text(error).utf8))
      }
    }
    if embeds {
      run(photo) { pk_xmp_write_embedded($0, &xmpChange, &error, error.count) }
      // A JPEG that cannot be rewritten (read-only, hard-linked) takes a
      // sidecar, as any other photo.
      if outcome.written.isEmpty, targets.isEmpty {
        outcome.problem = nil
        targets = newSidecars(of: photo, naming: options.sidecar, sharesStem: sharesStem)
        xmpChange = pk_xmp_change(
          set_rating: 1, rating: Int32(verdict.rating), set_label: 1, label: Int32(verdict.label?.rawValue ?? 0))
      }
    }
    for target in targets { run(target) { pk_xmp_write_sidecar($0, &xmpChange, &error, error.count) } }
    return outcome
  }

  /// A C message buffer as text, up to its NUL.
  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The sidecars beside `photo` that exist, as the reader finds them
  /// (either case of the names; Adobe's only when no other photo shares
  /// its stem), darktable's name first; and whether Adobe's name is
  /// another photo's too.
  static func existingSidecars(of photo: PathBytes) -> (paths: [PathBytes], sharesStem: Bool) {
    let folder = photo.parentFolder
    guard let entries = try? DirectoryReader.readAll(folder) else { return ([], false) }
    let sidecars = Sidecars(names: entries.filter { !$0.isFolder }.map(\.name))
    let name = photo.lastComponent
    return (
      sidecars.xmpSidecars(of: name).map(folder.appending).filter(DirectoryReader.isRegularFile),
      sidecars.sharesStem(name)
    )
  }

  /// The names a new sidecar takes: `IMG.CR2.xmp`, `IMG.xmp` or both; never
  /// `IMG.xmp` when another photo (the raw of a RAW+JPEG pair) has that
  /// stem: it would be that photo's.
  static func newSidecars(of photo: PathBytes, naming: XMPWriteOptions.SidecarNaming, sharesStem: Bool)
    -> [PathBytes]
  {
    let bytes = photo.bytes
    let darktable = PathBytes(bytes + Array(".xmp".utf8))
    let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1
    guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > slash + 1, !sharesStem else { return [darktable] }
    let adobe = PathBytes(Array(bytes[..<dot]) + Array(".xmp".utf8))
    switch naming {
    case .darktable: return [darktable]
    case .adobe: return [adobe]
    case .both: return [darktable, adobe]
    }
  }

  static func isJPEG(_ photo: PathBytes) -> Bool {
    let lower = String(decoding: photo.bytes.suffix(5), as: UTF8.self).lowercased()
    return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
  }
}
