import CImaging

/// Reads a photo's culling from XMP: its own (embedded in a JPEG, TIFF,
/// DNG or HEIC, read with the header) and its sidecar's, and chooses when
/// both have one.
public enum XMPCulling {
  /// What an XMP packet says (`pk_xmp_culling_read`: xmp:Rating, else
  /// digiKam's reject; xmp:Label, else darktable's or digiKam's colour);
  /// nil when it says nothing of either.
  public static func read(_ packet: [UInt8]) -> Culling? {
    var found = pk_xmp_culling()
    let said = packet.withUnsafeBufferPointer { pk_xmp_culling_read($0.baseAddress, $0.count, &found) }
    return said == 1 ? Culling(found) : nil
  }

  /// Which of the two a photo shows, and the facts' note when they
  /// disagree: the file written last wins, because it holds the latest
  /// verdict (an editor rated the sidecar after the camera wrote the
  /// photo, or wrote into the photo after the sidecar was made).
  static func chosen(
    embedded: Culling?, sidecar: Culling?, photoModified: Int64, sidecarModified: Int64?
  ) -> (culling: Culling, note: String?) {
    switch (embedded, sidecar) {
    case (nil, nil): return (.none, nil)
    case (let own?, nil): return (own, "in the photo")
    case (nil, let beside?): return (beside, "in the sidecar")
    case (let own?, let beside?):
      if own == beside { return (own, "in the photo and the sidecar") }
      let sidecarIsNewer = (sidecarModified ?? Int64.min) >= photoModified
      let other = (sidecarIsNewer ? own : beside).summary ?? "none"
      return sidecarIsNewer
        ? (beside, "in the sidecar, newer than the photo's own (\(other))")
        : (own, "in the photo, newer than its sidecar's (\(other))")
    }
  }
}

extension XMPCulling {
  /// A file's verdict without its other metadata: its own XMP (a header
  /// read, no pixels) against its sidecar's, newer file first. A video's
  /// is its sidecar's.
  static func ofFile(_ path: PathBytes, name: [UInt8], sidecar: Culling?, sidecarModified: Int64?) -> Culling {
    guard !PhotoFileTypes.isVideo(name: name) else { return sidecar ?? .none }
    var header = pk_photo_header()
    let readable = (path.bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { pk_read_photo_header($0.baseAddress!, &header) == 0 }
    }
    let own = readable && (header.culling.has_rating != 0 || header.culling.label != 0) ? Culling(header.culling) : nil
    guard own != nil, sidecar != nil else { return own ?? sidecar ?? .none }
    let modified = DirectoryReader.status(path).map { LibraryScanner.nanoseconds(LibraryScanner.modified($0)) } ?? 0
    return chosen(embedded: own, sidecar: sidecar, photoModified: modified, sidecarModified: sidecarModified).culling
  }
}

extension Culling {
  init(_ found: pk_xmp_culling) {
    self.init(
      rating: found.has_rating != 0 ? Int(found.rating) : 0, label: ColorLabel(rawValue: Int(found.label)))
  }
}
