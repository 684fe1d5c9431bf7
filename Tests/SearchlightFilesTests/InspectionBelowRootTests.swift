import Foundation
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// The inspector reads only files below its root: a folder on a file's path replaced by a
/// symbolic link (between the walk and the inspection, or by a hostile download) is not
/// followed, and the file is gone from the index's point of view.
@Suite("Inspection below the root")
struct InspectionBelowRootTests {
    @Test func aFolderReplacedByALinkIsNotFollowed() throws {
        let tree = TemporaryTree("inspect-below")
        tree.write("root/docs/report.txt", "the quarterly report\n")
        tree.write("outside/report.txt", "-----BEGIN PRIVATE NOTES-----\nnot below the root\n")
        let inspector = try FileInspector()
        let root = try RootFolder(path: tree.url("root"))
        guard case .item(let item, _) = inspector.inspect("docs/report.txt", in: root, domain: "d") else {
            Issue.record("the file below the root is not inspected")
            return
        }
        #expect(item.attributeSet.contentType == "text/plain")
        // `docs` becomes a link to a folder outside the root holding a file of the same name.
        try FileManager.default.removeItem(atPath: tree.url("root/docs"))
        try FileManager.default.createSymbolicLink(atPath: tree.url("root/docs"), withDestinationPath: tree.url("outside"))
        guard case .vanished = inspector.inspect("docs/report.txt", in: root, domain: "d") else {
            Issue.record("a file reached through a link to outside the root was inspected")
            return
        }
        // A link deeper on the way, to a folder inside the root, is not followed either.
        tree.write("root/real/notes.txt", "notes\n")
        try FileManager.default.createSymbolicLink(atPath: tree.url("root/alias"), withDestinationPath: tree.url("root/real"))
        guard case .vanished = inspector.inspect("alias/notes.txt", in: root, domain: "d") else {
            Issue.record("a path through a link was inspected")
            return
        }
        guard case .item = inspector.inspect("real/notes.txt", in: root, domain: "d") else {
            Issue.record("the real path is not inspected")
            return
        }
    }
}
