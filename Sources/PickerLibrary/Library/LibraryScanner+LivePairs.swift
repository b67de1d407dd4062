extension LibraryScanner {
  /// Live Photos whose MOV has another name than its still (renamed on
  /// export or upload) are paired by Apple's content identifier, which both
  /// carry: the MOV points at its still (`live_of`) and is neither listed
  /// nor counted, the still names its MOV (`live_video`). Pairs by name
  /// never reach the index as two rows (`Sidecars`). Run after a scan that
  /// changed something: a pair is made, or undone when one of the two
  /// went, from what the index holds, without reading a file.
  func pairLivePhotosByContentID() throws(SQLiteError) {
    let (condition, parameters) = filter.rootCondition()
    // The still of the same folder with the same identifier, if any.
    let still = """
      (SELECT s.id FROM photo s WHERE s.folder = p.folder AND s.content_id = p.content_id
        AND s.duration IS NULL LIMIT 1)
      """
    try database.prepare(
      """
      UPDATE photo AS p SET live_of = \(still)
      FROM folder f WHERE f.id = p.folder AND \(condition) AND p.duration IS NOT NULL
        AND (p.content_id IS NOT NULL OR p.live_of IS NOT NULL) AND p.live_of IS NOT \(still)
      """
    ).run(parameters)
    // A still whose MOV is paired this way names it; one whose MOV went
    // forgets it (a MOV of its own name is kept by the scan).
    try database.prepare(
      """
      UPDATE photo AS p SET live_video = (SELECT m.name FROM photo m WHERE m.live_of = p.id LIMIT 1)
      FROM folder f WHERE f.id = p.folder AND \(condition) AND p.duration IS NULL AND p.content_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM photo m WHERE m.live_of = p.id)
        AND p.live_video IS NOT (SELECT m.name FROM photo m WHERE m.live_of = p.id LIMIT 1)
      """
    ).run(parameters)
  }
}
