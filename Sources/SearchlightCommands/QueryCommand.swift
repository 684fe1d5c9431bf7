import ArgumentParser
import ExtractionProtocol
import Foundation
import Searchlight
import SearchlightJSON

struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Find items matching a Spotlight query string (as mdfind and CSSearchQuery).",
        discussion: """
            Examples:
              searchlight query 'title == "report*"cd && contentModificationDate > $time.today(-7)'
              searchlight query 'contentTypeTree == "image" && pixelWidth >= 1000'
              searchlight query '* == "canon"cdw'
            A malformed query exits 64 and shows where it went wrong. See Docs/QueryLanguage.md.
            """
    )

    @Argument(help: "The query string.")
    var query: String

    @OptionGroup var filter: DomainFilter

    @Flag(help: "Print the SQL that runs (on standard error) and, for each result, what matched.")
    var explain = false

    @Flag(help: "Print the results, then the items that enter (+) and leave (-) them as the index changes, until interrupted.")
    var live = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions

    func validate() throws {
        if live && output.count { throw ValidationError("--live and --count cannot be used together.") }
    }

    func run() async throws {
        let index = try indexOptions.openForReading()
        let expression = try CommandFailure.wrap { try QueryExpression(parsing: query) }
        if explain {
            let sql = try CommandFailure.wrap { try index.explainQuery(query, domain: filter.domain, limit: output.limit) }
            StandardError.write(sql + "\n")
        }
        let printer = try ItemPrinter(format: output.format, index: index, relative: output.relative)
        if live {
            try await printLive(index: index, printer: printer, expression: expression)
            return
        }
        if output.count {
            let count = try CommandFailure.wrap { try index.countQuery(query, domain: filter.domain) }
            printer.printCount(output.limit.map { min($0, count) } ?? count)
        } else {
            let items = try CommandFailure.wrap { try index.query(query, domain: filter.domain, limit: output.limit) }
            for item in items { print(item, marker: nil, printer: printer, expression: expression) }
        }
        printer.flush()
    }

    /// One result, with what matched when `--explain` is given and the change when `--live` is.
    func print(_ item: IndexedItem, marker: String?, printer: ItemPrinter, expression: QueryExpression) {
        let matched = explain ? Self.explanation(of: item, expression: expression) : []
        switch printer.format {
        case .json:
            var line = printer.json(item)
            if explain { line.add("matched", strings: matched) }
            if let marker { line.add("change", marker == "+" ? "added" : marker == "-" ? "removed" : "updated") }
            printer.output.write(line.finished + [0x0A])
        case .lines:
            if let marker { printer.output.write(marker + " ") }
            printer.output.write(printer.path(of: item.item.reference))
            if explain { printer.output.write("\t(matched: " + matched.joined(separator: "; ") + ")") }
            printer.output.write(byte: 0x0A)
        case .nulTerminated:
            printer.print(item)
        }
    }

    /// What matched, for `--explain`: each predicate and the attributes that satisfied it; where
    /// a predicate on the type held for an item typed over libmagic's weak guess, what decided
    /// its type (its name and its bytes, ``TypeEvidence``).
    static func explanation(of item: IndexedItem, expression: QueryExpression) -> [String] {
        let matches = expression.explanation(for: item)
        var lines = matches.map(\.description)
        let typeAttributes: Set<QueryAttribute> = [.contentType, .contentTypeTree, .contentDescription]
        if matches.contains(where: { !typeAttributes.isDisjoint(with: $0.attributes) }),
           let description = item.item.attributeSet.contentDescription, let evidence = TypeEvidence.evidence(in: description) {
            lines.append("type decided by \(evidence)")
        }
        return lines
    }

    func printLive(index: any IndexReader, printer: ItemPrinter, expression: QueryExpression) async throws {
        let changes = SearchQuery(queryString: query).liveResults(in: index, domain: filter.domain)
        do {
            for try await change in changes {
                for item in change.added { print(item, marker: change.isInitial ? nil : "+", printer: printer, expression: expression) }
                for item in change.removed { print(item, marker: "-", printer: printer, expression: expression) }
                for item in change.updated { print(item, marker: "~", printer: printer, expression: expression) }
                printer.flush()
            }
        } catch {
            _ = try CommandFailure.wrap { throw error }
        }
    }
}
