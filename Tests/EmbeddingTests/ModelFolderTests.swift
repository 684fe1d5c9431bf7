@testable import Embedding
import Foundation
import SearchlightTestSupport
import SystemPackage
import Testing

@Suite(.ownThread) struct ModelFolderTests {
    @Test func configuredAndEnvironmentFoldersWin() {
        #expect(ModelFolder.find(configured: "/opt/models/e5", environment: ["SEARCHLIGHT_MODEL_DIR": "/elsewhere"]) == "/opt/models/e5")
        #expect(ModelFolder.find(configured: nil, environment: ["SEARCHLIGHT_MODEL_DIR": "/elsewhere"]) == "/elsewhere")
    }

    @Test func dataHomeHoldingAModelIsFound() throws {
        let tree = TemporaryTree()
        let folder = tree.path + "/data/searchlight/models/multilingual-e5-small"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(ModelFolder.find(configured: nil, environment: ["XDG_DATA_HOME": tree.path + "/data", "HOME": "/nonexistent"])
            != FilePath(folder))
        FileManager.default.createFile(atPath: folder + "/model.bin", contents: Data("E5S1".utf8))
        #expect(ModelFolder.find(configured: nil, environment: ["XDG_DATA_HOME": tree.path + "/data", "HOME": "/nonexistent"])
            == FilePath(folder))
    }

    @Test func candidatesInOrder() {
        let candidates = ModelFolder.candidates(environment: ["HOME": "/home/someone"])
        #expect(candidates.first == "/home/someone/.local/share/searchlight/models/multilingual-e5-small")
        #expect(candidates.last == "/usr/share/searchlight/models/multilingual-e5-small")
        // PREFIX/share/… next to the running executable (PREFIX/bin/…).
        #expect(candidates.count == 3)
        #expect(candidates[1].string.hasSuffix("/share/searchlight/models/multilingual-e5-small"))
        // A relative XDG_DATA_HOME is ignored, as the XDG specification says.
        #expect(ModelFolder.candidates(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).first
            == "/h/.local/share/searchlight/models/multilingual-e5-small")
    }
}
