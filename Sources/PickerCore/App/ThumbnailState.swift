/// A photo tile's thumbnail.
public enum ThumbnailState: Hashable, Sendable {
  case loading
  case ready(Thumbnail)
  case failed(String)
}
