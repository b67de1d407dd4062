import Foundation
import Testing

@testable import PickerBase
@testable import PickerCore
@testable import PickerImaging
@testable import PickerLibrary
@testable import PickerRemote
@testable import PickerTerminal

@Suite struct CredentialStoreTests {
  let scratch = ScratchFolder()

  /// A store in a folder that does not exist yet (two levels down).
  func store(environment: [String: String] = [:]) -> CredentialStore {
    CredentialStore(folder: scratch.path + "/state/credentials", environment: environment)
  }

  @Test func saveWritesPrivateFiles() throws {
    let store = store()
    try store.save(["token": "s3cret"], for: "Stock")
    let file = store.path(for: "Stock")
    #expect(file.hasPrefix(store.folder + "/"))
    #expect(permissions(file) == 0o600)
    #expect(permissions(store.folder) == 0o700)
    #expect(permissions((store.folder as NSString).deletingLastPathComponent) == 0o700)
    // Only the file itself is left: no temporary beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder) == [(file as NSString).lastPathComponent])
  }

  @Test func roundTripAndRemove() throws {
    let store = store()
    #expect(store.answers(for: "Stock") == nil)
    try store.save(["user": "ann", "password": "p \"w\" ü"], for: "Stock")
    #expect(store.answers(for: "Stock") == ["user": "ann", "password": "p \"w\" ü"])
    try store.save(["token": "newer"], for: "Stock")
    #expect(store.answers(for: "Stock") == ["token": "newer"])
    #expect(store.answers(for: "Other") == nil)
    store.remove(for: "Stock")
    #expect(store.answers(for: "Stock") == nil)
    #expect(!FileManager.default.fileExists(atPath: store.path(for: "Stock")))
  }

  @Test func environmentNames() {
    #expect(CredentialStore.environmentName(of: "My Stock-2") == "MY_STOCK_2")
    #expect(CredentialStore.environmentName(of: "photos") == "PHOTOS")
    #expect(CredentialStore.environmentName(of: "a.b/c") == "A_B_C")
  }

  @Test func theEnvironmentTokenIsReadByName() {
    let store = store(environment: ["PICKER_TUI_MY_STOCK_2_TOKEN": "from-env", "PICKER_TUI_EMPTY_TOKEN": ""])
    #expect(store.environmentToken(for: "My Stock-2") == "from-env")
    #expect(store.environmentToken(for: "Empty") == nil)
    #expect(store.environmentToken(for: "Other") == nil)
  }

  @Test func theEnvironmentTokenIsNeverWritten() throws {
    let store = store(environment: ["PICKER_TUI_STOCK_TOKEN": "from-env"])
    try store.save(["token": "typed"], for: "Stock")
    let text = String(decoding: FileManager.default.contents(atPath: store.path(for: "Stock")) ?? Data(), as: UTF8.self)
    #expect(text.contains("typed"))
    #expect(!text.contains("from-env"))
    #expect(store.environmentToken(for: "Stock") == "from-env")
  }

  @Test func differentSourcesKeepDifferentFiles() {
    let store = store()
    #expect(store.path(for: "Stock") != store.path(for: "Archive"))
    // Names the config tells apart must not share a file (or one source's
    // token would be sent to the other's server).
    #expect(store.path(for: "Фото") != store.path(for: "Вещи"))
    #expect(store.path(for: "My Stock") != store.path(for: "My-Stock"))
  }

  @Test func theFolderFollowsXDG() {
    let store = CredentialStore.forCurrentUser(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
    #expect(store.folder == "/s/picker-tui/credentials")
    #expect(
      CredentialStore.forCurrentUser(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]).folder
        == "/h/.local/state/picker-tui/credentials")
  }
}
