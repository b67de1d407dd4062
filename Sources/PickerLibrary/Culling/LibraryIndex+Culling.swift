extension LibraryIndex {
  /// Keeps a verdict given in the picker at once, before its XMP is
  /// written: the timeline listed again shows it, and the next scan reads
  /// the same from the sidecar. Nothing happens for a file not indexed.
  public func remember(_ culling: Culling, of path: PathBytes) throws(SQLiteError) {
    guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { return }
    let folder = slash == 0 ? [UInt8(ascii: "/")] : Array(path.bytes[..<slash])
    let name = Array(path.bytes[(slash + 1)...])
    try withDatabase { database throws(SQLiteError) in
      try database.prepare(
        "UPDATE photo SET rating = ?, label = ? WHERE folder = (SELECT id FROM folder WHERE path = ?) AND name = ?"
      ).run([Int64(culling.rating), culling.label.map { Int64($0.rawValue) }, folder, name])
    }
  }
}
