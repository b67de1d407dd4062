import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct XDGFoldersTests {
  @Test func absoluteValuesAreUsed() {
    let environment = ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_CACHE_HOME": "/c", "XDG_STATE_HOME": "/s"]
    #expect(XDGFolders.configHome(environment: environment) == "/cfg")
    #expect(XDGFolders.cacheHome(environment: environment) == "/c")
    #expect(XDGFolders.stateHome(environment: environment) == "/s")
  }

  @Test(arguments: [nil, "", "relative/config", "./x"])
  func unsetEmptyOrRelativeValuesAreIgnored(value: String?) {
    var environment = ["HOME": "/home/u"]
    for name in ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"] { environment[name] = value }
    #expect(XDGFolders.configHome(environment: environment) == "/home/u/.config")
    #expect(XDGFolders.cacheHome(environment: environment) == "/home/u/.cache")
    #expect(XDGFolders.stateHome(environment: environment) == "/home/u/.local/state")
    // Every user of the folders agrees: the credentials, the log, the
    // config and the freedesktop thumbnail cache.
    #expect(PrivateFiles.configFolder(environment: environment) == "/home/u/.config/picker-tui")
    #expect(FreedesktopThumbnailCache.forCurrentUser(environment: environment).root == "/home/u/.cache/thumbnails")
  }
}
