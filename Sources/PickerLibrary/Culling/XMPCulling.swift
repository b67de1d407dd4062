import CImaging

/// Reads a photo's culling from XMP: its own (embedded in a JPEG, TIFF,
/// DNG or HEIC, read with the header) and its sidecar's, and chooses when
/// both have one.
public enum XMPCulling {
  /// What an XMP packet says (`pk_xmp_culling_read`: xmp:Rating, else
  /// digiKam's reject; xmp:Label, else darktable's or digiKam's colour);
  /// nil when it says nothing of either.
  public static func read(_ packet: [UInt8]) -> Culling? { verdict(packet)?.culling }

  /// The same, telling a rating not given from a rating of 0.
  static func verdict(_ packet: [UInt8]) -> XMPVerdict? {
    var found = pk_xmp_culling()
    let said = packet.withUnsafeBufferPointer { pk_xmp_culling_read($0.baseAddress, $0.count, &found) }
    return said == 1 ? XMPVerdict(found) : nil
  }

  /// What a photo shows of its own XMP and its sidecar's, property by
  /// property, and the facts' note when they disagree: of a property both
  /// give, the file written last wins, because it holds the latest verdict
  /// (an editor rated the sidecar after the camera wrote the photo, or
  /// wrote into the photo after the sidecar was made); a property only one
  /// gives is taken from it (a label put in a new sidecar keeps the stars
  /// the photo holds).
  static func chosen(
    embedded: XMPVerdict?, sidecar: XMPVerdict?, photoModified: Int64, sidecarModified: Int64?
  ) -> (culling: Culling, note: String?) {
    switch (embedded, sidecar) {
    case (nil, nil): return (.none, nil)
    case (let own?, nil): return (own.culling, "in the photo")
    case (nil, let beside?): return (beside.culling, "in the sidecar")
    case (let own?, let beside?):
      if own == beside { return (own.culling, "in the photo and the sidecar") }
      let sidecarIsNewer = (sidecarModified ?? Int64.min) >= photoModified
      func pick<T>(_ mine: T?, _ theirs: T?) -> T? {
        guard let mine, let theirs else { return mine ?? theirs }
        return sidecarIsNewer ? theirs : mine
      }
      let culling = Culling(rating: pick(own.rating, beside.rating) ?? 0, label: pick(own.label, beside.label))
      if culling == beside.culling, own.culling != culling {
        return (culling, "in the sidecar, newer than the photo's own (\(own.culling.summary ?? "none"))")
      }
      if culling == own.culling, beside.culling != culling {
        return (culling, "in the photo, newer than its sidecar's (\(beside.culling.summary ?? "none"))")
      }
      return (culling, "in the photo and the sidecar")
    }
  }
}

/// What one XMP packet gives: each property when it gives it.
struct XMPVerdict: Hashable, Sendable {
  var rating: Int?
  var label: ColorLabel?

  var culling: Culling { Culling(rating: rating ?? 0, label: label) }

  init(rating: Int? = nil, label: ColorLabel? = nil) {
    self.rating = rating
    self.label = label
  }

  init(_ found: pk_xmp_culling) {
    rating = found.has_rating != 0 ? Int(found.rating) : nil
    label = ColorLabel(rawValue: Int(found.label))
  }
}

extension XMPCulling {
  /// A file's verdict without its other metadata: its own XMP (a header
  /// read, no pixels) against its sidecar's, newer file first. A video's
  /// is its sidecar's.
  static func ofFile(_ path: PathBytes, name: [UInt8], sidecar: XMPVerdict?, sidecarModified: Int64?) -> Culling {
    guard !PhotoFileTypes.isVideo(name: name) else { return sidecar?.culling ?? Culling.none }
    var header = pk_photo_header()
    let readable = (path.bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { pk_read_photo_header($0.baseAddress!, &header) == 0 }
    }
    let own = readable ? XMPVerdict.embedded(header.culling) : nil
    guard own != nil, sidecar != nil else { return (own ?? sidecar)?.culling ?? Culling.none }
    let modified = DirectoryReader.status(path).map { LibraryScanner.nanoseconds(LibraryScanner.modified($0)) } ?? 0
    return chosen(embedded: own, sidecar: sidecar, photoModified: modified, sidecarModified: sidecarModified).culling
  }
}

extension XMPVerdict {
  /// A header's culling, nil when the photo's XMP says nothing of it.
  static func embedded(_ found: pk_xmp_culling) -> XMPVerdict? {
    found.has_rating != 0 || found.label != 0 ? XMPVerdict(found) : nil
  }
}
