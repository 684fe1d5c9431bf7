import ArgumentParser
import Foundation
import Searchlight
import SystemCalls

struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write an item's thumbnail (WebP by default) to a file or to standard output."
    )

    @OptionGroup var item: ItemArguments

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let index = try indexOptions.openForReading()
        let indexed = try item.item(in: index)
        guard let thumbnail = indexed.item.attributeSet.thumbnail else {
            let reason = indexed.item.failure.map { " (\($0))" } ?? ""
            throw CommandFailure.fail("\(item.id.debugDescription) has no thumbnail\(reason)")
        }
        if let output {
            do {
                try Data(thumbnail.bytes).write(to: URL(fileURLWithPath: output))
            } catch {
                throw CommandFailure.fail("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            if SystemCall.isTerminal(1) {
                throw CommandFailure.fail("the thumbnail is \(thumbnail.format) image data; use -o FILE or redirect the output",
                                          code: 64)
            }
            let out = StandardOutput()
            out.write(thumbnail.bytes)
            out.flush()
        }
    }
}
