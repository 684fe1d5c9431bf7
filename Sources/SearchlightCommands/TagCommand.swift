import ArgumentParser
import Foundation
import SearchlightFiles
import SystemCalls
import SystemPackage

/// `searchlight tag FILE [+TAG|-TAG]...`: reads and edits a file's tags (`user.xdg.tags`, the
/// extended attribute GNOME Files, Dolphin and Baloo share). A running `watch` sees the change
/// (`IN_ATTRIB`) and updates the item without extracting its content again; otherwise the
/// next `scan` does.
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Print a file's tags, or add (+TAG) and remove (-TAG) them.",
        discussion: """
            Tags are stored in the file's extended attribute user.xdg.tags (comma-separated), \
            as GNOME, KDE and Baloo store them. With no +TAG or -TAG, prints the tags, one per \
            line. Removing the last tag removes the attribute. Examples:
              searchlight tag report.pdf +work +2024
              searchlight tag report.pdf -work
              searchlight tag report.pdf -- -h      (after --, -h is a tag, not help)
            Search by tag with `searchlight search tag:work` or `searchlight query 'kMDItemUserTags == "work"'`.
            """
    )

    @Argument(help: ArgumentHelp("The file.", valueName: "file"))
    var file: String

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("+TAG adds a tag, -TAG removes one.", valueName: "+tag|-tag"))
    var changes: [String] = []

    func validate() throws {
        for change in changes {
            guard let sign = change.first, sign == "+" || sign == "-", change.count > 1 else {
                throw ValidationError("expected +TAG or -TAG, not \(change.debugDescription)")
            }
            let tag = change.dropFirst()
            if tag.contains(",") { throw ValidationError("a tag cannot contain a comma: \(change.debugDescription)") }
            if tag.allSatisfy(\.isWhitespace) { throw ValidationError("a tag cannot be blank: \(change.debugDescription)") }
        }
    }

    func run() throws {
        let current: [String]
        do {
            current = try SystemCall.extendedAttribute(ExtendedAttributes.tags, path: file).map(ExtendedAttributes.tags(in:)) ?? []
        } catch {
            throw failure(error)
        }
        var tags = current
        for change in changes {
            let tag = ExtendedAttributes.tags(in: Array(change.dropFirst().utf8)).first ?? ""
            let sameTag = { (other: String) in other.lowercased() == tag.lowercased() }
            if change.first == "+" {
                if !tags.contains(where: sameTag) { tags.append(tag) }
            } else {
                tags.removeAll(where: sameTag)
            }
        }
        if tags != current {
            do {
                if tags.isEmpty {
                    try SystemCall.removeExtendedAttribute(ExtendedAttributes.tags, path: file)
                } else {
                    try SystemCall.setExtendedAttribute(ExtendedAttributes.tags, to: ExtendedAttributes.value(ofTags: tags),
                                                        path: file)
                }
            } catch {
                throw failure(error)
            }
        }
        let output = StandardOutput()
        for tag in tags { output.writeLine(Array(tag.utf8), terminator: 0x0A) }
        output.flush()
    }

    /// One clear line for a failed read or write of the attribute, and exit status 1.
    private func failure(_ error: Errno) -> ExitCode {
        let reason = switch error {
        case .noSuchFileOrDirectory: "no such file"
        case .notSupported: "its file system does not support user extended attributes, so it cannot have tags"
        case .permissionDenied, .notPermitted: "permission denied (tags are written to the file's extended attributes)"
        case .noSpace: "no room for more extended attributes"
        default: error.description
        }
        return CommandFailure.fail("\(file): \(reason)")
    }
}
