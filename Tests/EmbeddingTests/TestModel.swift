import Embedding
import SystemPackage

/// Where the tests find the model and the reference's vectors: `.build/models`, filled by
/// `.ci/install-dependencies` (or `make model DEST=.build/models`).
enum TestModel {
    /// The package's root, from this file's path.
    static let packageRoot: FilePath = {
        var path = FilePath(#filePath)
        for _ in 0..<3 { path.removeLastComponent() }
        return path
    }()

    static func folder() throws -> FilePath {
        let folder = packageRoot.appending(".build/models/\(ModelFolder.name)")
        guard (try? FileDescriptor.open(folder.appending("model.bin"), .readOnly))
            .map({ try? $0.close(); return true }) ?? false
        else {
            throw TestModelMissing(folder: folder)
        }
        return folder
    }
}

struct TestModelMissing: Error, CustomStringConvertible {
    var folder: FilePath
    var description: String {
        "no model at \(folder)/model.bin: run .ci/install-dependencies (or Packaging/install-model .build/models)"
    }
}
