import ArgumentParser
import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open an item's file with the desktop's default application (xdg-open).",
        discussion: """
            ID is the item's path relative to its root. Without a desktop (neither DISPLAY nor \
            WAYLAND_DISPLAY is set) it prints the command it would run and exits 0. An ID held \
            by several domains needs --domain (exit 64); an unknown ID, a file gone from disk \
            or a failing xdg-open exit 1.
            """
    )

    @OptionGroup var item: ItemArguments

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let index = try indexOptions.openForReading()
        let item = try self.item.item(in: index).item
        let roots = try CommandFailure.wrap { try ItemJSON(index: index) }
        if let since = roots.offline[item.domainIdentifier] {
            let path = roots.absolutePath(item).map { String(decoding: $0, as: UTF8.self) } ?? item.uniqueIdentifier.lossyString
            throw CommandFailure.fail("""
                cannot open \(path): its drive is not connected (offline since \(RootPlace.describe(since))); \
                plug it in or mount it, and try again
                """)
        }
        let path = try CommandFailure.wrap { try FileOpener.path(of: item, at: roots.absolutePath(item), in: index) }
        // Asked for by name: it ranks higher in later searches (this person's, this machine's).
        OpenHistory.standard().record(domain: item.domainIdentifier, identifier: item.uniqueIdentifier)
        let environment = ProcessInfo.processInfo.environment
        let hasDesktop = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        if !hasDesktop {
            let output = StandardOutput()
            output.write("xdg-open ")
            output.write(Self.shellQuoted(path))
            output.write("\n")
            output.flush()
            return
        }
        try CommandFailure.wrap { try FileOpener.open(path) }
    }

    /// `'…'` with `'` written as `'\''`: a POSIX shell reads back the exact bytes.
    static func shellQuoted(_ bytes: [UInt8]) -> [UInt8] {
        var quoted: [UInt8] = [0x27]
        for byte in bytes {
            if byte == 0x27 { quoted += Array("'\\''".utf8) } else { quoted.append(byte) }
        }
        return quoted + [0x27]
    }
}
