/// Near-identical shots shown as one tile: the entry a listing shows for
/// them is their cover (the highest rated, else the sharpest), holding
/// every member.
public struct PhotoStack: Hashable, Sendable {
  /// Every photo of the stack in listing order, the cover among them.
  public private(set) var members: [PhotoItem]
  /// Which member is the cover.
  public private(set) var coverIndex: Int
  /// Each member's sharpness as 0-100 of the sharpest's; nil where a
  /// member has no signature yet.
  public private(set) var scores: [Int?]

  init(members: [PhotoItem]) {
    self.members = members
    let (scores, sharpest) = StackingRule.scores(members.map(\.signature))
    self.scores = scores
    // The one given most stars (the sharpest of those), else the
    // sharpest; the first when none is scored.
    coverIndex = Self.highestRated(members, scores: scores) ?? sharpest ?? 0
  }

  /// The member with the most stars, when one has any.
  static func highestRated(_ members: [PhotoItem], scores: [Int?]) -> Int? {
    guard let most = members.map(\.culling.stars).max(), most > 0 else { return nil }
    return members.indices.filter { members[$0].culling.stars == most }.max { (scores[$0] ?? -1) < (scores[$1] ?? -1) }
  }

  public var count: Int { members.count }
  public var cover: PhotoItem { members[coverIndex] }

  /// The members sharpest first (compare takes the first four).
  public var bySharpness: [PhotoItem] {
    members.indices.sorted { a, b in (scores[a] ?? -1, b) > (scores[b] ?? -1, a) }.map { members[$0] }
  }

  /// The score of the member with this id, when it has one.
  public func score(of id: String) -> Int? {
    members.firstIndex { $0.id == id }.flatMap { scores[$0] }
  }

  /// The entry a listing shows for these photos: the photo itself when
  /// alone, else the cover carrying the stack. The entry keeps the first
  /// member's date, so a stack stays in the day it starts in.
  package static func entry(for members: [PhotoItem]) -> PhotoItem {
    guard members.count > 1 else { return members[0] }
    let stack = PhotoStack(members: members)
    var entry = stack.cover
    entry.taken = members[0].taken
    entry.stack = stack
    return entry
  }
}

extension PhotoItem {
  /// The photos this entry stands for: a stack's members, or itself.
  public var photos: [PhotoItem] { stack?.members ?? [self] }
}

extension StackingRule {
  /// How stacking sees a listed item.
  func photo(_ item: PhotoItem) -> Photo {
    Photo(taken: Self.seconds(item.taken), signature: item.signature, burstID: item.burstID)
  }

  /// The date in seconds, when it says when the shot was taken to the
  /// second: a messenger's file name (IMG-20230614-WA0003) gives the day
  /// only, read as midnight; a file's modification time is when it was
  /// copied (a folder copied without keeping times has them all within a
  /// second or two). Neither stacks on time.
  static func seconds(_ taken: TakenDate?) -> Double? {
    guard let taken, taken.origin != .fileTime,
      !(taken.origin == .fileName && taken.wallClock % TakenDate.millisecondsPerDay == 0)
    else {
      return nil
    }
    return Double(taken.wallClock) / 1000
  }

  /// Whether `item` joins the entry before it (a photo, or a stack's last member).
  package func joins(_ item: PhotoItem, after entry: PhotoItem) -> Bool {
    guard item.kind == .photo, entry.kind == .photo, !item.isMissing, !entry.isMissing else { return false }
    // The entry's last photo, read in place: no array of one, no copy.
    let previous = entry.stack.map { photo($0.members[$0.members.count - 1]) } ?? photo(entry)
    return joins(photo(item), after: previous)
  }

  /// `joins(photos[index], after: photos[index - 1])`, read a field at a
  /// time: an item handed whole to a function is copied (a retain for each
  /// of its arrays and strings), most of the time taken on thousands.
  private func joins(at index: Int, in photos: [PhotoItem]) -> Bool {
    let entry = index - 1
    guard photos[index].kind == .photo, photos[entry].kind == .photo, !photos[index].isMissing,
      !photos[entry].isMissing
    else { return false }
    // The entry's last photo: a stack's last member, else itself.
    let previous = photos[entry].stack.map { photo($0.members[$0.members.count - 1]) } ?? photo(at: entry, in: photos)
    return joins(photo(at: index, in: photos), after: previous)
  }

  /// `photo(photos[index])`, a field at a time.
  private func photo(at index: Int, in photos: [PhotoItem]) -> Photo {
    Photo(taken: Self.seconds(photos[index].taken), signature: photos[index].signature, burstID: photos[index].burstID)
  }

  /// The entries a listing of `photos` shows, as a scope appends them one
  /// by one (`joins`, then the grown stack's entry); nothing else is
  /// made, for selecting a whole listing at once.
  package func entries(of photos: [PhotoItem]) -> [PhotoItem] {
    // Most listings stack nothing: then the photos are the entries, uncopied.
    guard photos.indices.dropFirst().contains(where: { joins(at: $0, in: photos) }) else { return photos }
    var entries: [PhotoItem] = []
    entries.reserveCapacity(photos.count)
    for photo in photos {
      if let last = entries.last, joins(photo, after: last) {
        entries[entries.count - 1] = PhotoStack.entry(for: last.photos + [photo])
      } else {
        entries.append(photo)
      }
    }
    return entries
  }
}
