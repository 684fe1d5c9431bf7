import ArgumentParser
import ExtractionProtocol
import Foundation
import Searchlight

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print every attribute of one item, like mdls.",
        discussion: "ID is the item's path relative to its root. Without --domain, every domain holding ID is shown."
    )

    @OptionGroup var item: ItemArguments

    @Flag(help: "Print the item as one JSON object.")
    var json = false

    @Flag(help: "Print the item's text (what a search looks in), not its attributes.")
    var text = false

    @Option(help: ArgumentHelp("For an archive: list the members whose name or text holds every word of TEXT.",
                               valueName: "text"))
    var matching: String?

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let index = try indexOptions.openForReading()
        let items = try item.items(in: index)
        let printer = try ItemPrinter(format: .json, index: index)
        let recognition = OCRMarks(index: index)
        if text {
            for indexed in items {
                let text = indexed.item.attributeSet.textContent ?? ""
                printer.output.write(text)
                if !text.isEmpty && !text.hasSuffix("\n") { printer.output.write("\n") }
            }
            printer.flush()
            return
        }
        for (position, indexed) in items.enumerated() {
            if json {
                printer.print(indexed)
                continue
            }
            if position > 0 { printer.output.write("\n") }
            printer.output.write(describe(indexed, printer: printer, recognition: recognition))
        }
        printer.flush()
    }

    /// `name = value` lines, in the manner of mdls.
    func describe(_ indexed: IndexedItem, printer: ItemPrinter, recognition: OCRMarks) -> String {
        let item = indexed.item
        let a = item.attributeSet
        func quoted(_ text: String?) -> String { text.map { $0.debugDescription } ?? "(null)" }
        func date(_ date: Date?) -> String { date.map { $0.formatted(.iso8601) } ?? "(null)" }
        var rows: [(String, String)] = [
            ("id", quoted(item.uniqueIdentifier.lossyString)),
            ("domain", quoted(item.domainIdentifier)),
            ("path", quoted(printer.absolutePath(item).map { String(decoding: $0, as: UTF8.self) })),
            ("displayName", quoted(a.displayName)),
            ("title", quoted(a.title)),
            ("authors", "(" + a.authors.map(\.debugDescription).joined(separator: ", ") + ")"),
            ("contentType", quoted(a.contentType)),
            ("contentTypeTree", "(" + a.contentTypeTree.map(\.debugDescription).joined(separator: ", ") + ")"),
            ("contentDescription", quoted(a.contentDescription)),
        ]
        if let evidence = a.contentDescription.flatMap(TypeEvidence.evidence(in:)) {
            // The type came from the name and the bytes, over libmagic's weak guess.
            rows.append(("contentTypeEvidence", quoted(String(evidence))))
        }
        rows += [
            ("keywords", "(" + a.keywords.map(\.debugDescription).joined(separator: ", ") + ")"),
            ("size", a.size.map(String.init) ?? "(null)"),
            ("contentModificationDate", date(a.contentModificationDate)),
            ("contentCreationDate", date(a.contentCreationDate)),
            ("pixelWidth", a.pixelWidth.map(String.init) ?? "(null)"),
            ("pixelHeight", a.pixelHeight.map(String.init) ?? "(null)"),
            ("pageCount", a.pageCount.map(String.init) ?? "(null)"),
        ]
        if let make = a.acquisitionMake { rows.append(("acquisitionMake", quoted(make))) }
        if let model = a.acquisitionModel { rows.append(("acquisitionModel", quoted(model))) }
        if let latitude = a.latitude { rows.append(("latitude", String(latitude))) }
        if let longitude = a.longitude { rows.append(("longitude", String(longitude))) }
        rows.append(("userTags", "(" + a.userTags.map(\.debugDescription).joined(separator: ", ") + ")"))
        rows.append(("comment", quoted(a.comment)))
        rows.append(("starRating", a.starRating.map { $0.formatted(.number) } ?? "(null)"))
        rows.append(("whereFroms", "(" + a.whereFroms.map(\.debugDescription).joined(separator: ", ") + ")"))
        if let info = indexed.thumbnailInfo {
            rows.append(("thumbnail", "\(info.format) \(info.width)×\(info.height), \(info.byteCount) bytes"))
        } else {
            rows.append(("thumbnail", "(null)"))
        }
        if let text = a.textContent {
            rows.append(("textContent", quoted(String(text.prefix(200)) + (text.count > 200 ? "…" : ""))))
            if let recognized = recognition.recognition(of: item) {
                rows.append(("textContentSource", quoted(OCRMarks.label)))
                if let pages = recognized.pages { rows.append(("recognizedPages", quoted(OCRMarks.describe(pages)))) }
            }
        }
        rows += memberRows(a.textContent, matching: matching)
        if let expiration = item.expirationDate { rows.append(("expirationDate", date(expiration))) }
        rows.append(("failure", quoted(item.failure)))
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + " = " + $0.1 }
            .joined(separator: "\n") + "\n"
    }
}
