import Foundation

/// The thumbnail pipeline a picker run uses: the user's freedesktop
/// thumbnail cache, and remote thumbnails through their sources into a
/// cache of the picker's own.
enum PickerPipeline {
  static func make(environment: [String: String], remote: [any RemoteImageSource]) -> ImagePipeline {
    var configuration = ImagePipeline.Configuration()
    configuration.diskCache = FreedesktopThumbnailCache.forCurrentUser(environment: environment)
    if !remote.isEmpty {
      configuration.loaders.append(RemoteImageLoader(sources: remote))
      configuration.remoteCache = FreedesktopThumbnailCache(
        root: PrivateFiles.cacheFolder(environment: environment) + "/thumbnails")
    }
    return ImagePipeline(configuration: configuration)
  }
}
