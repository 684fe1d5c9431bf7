import ArgumentParser
import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

/// `searchlight search WORDS…`: the ranked search of the index, printed one path per line
/// (or as JSON, or as a count).
///
/// Its common forms never reach this type: the executable's fast path
/// (``SearchCommand/parseCommon(_:)``) makes a ``SearchRequest`` straight from the arguments,
/// skipping swift-argument-parser's reflection at start-up. Both run the same
/// ``SearchRequest/run()``.
///
/// ```
/// searchlight search budget 2024
/// searchlight search --json --limit 5 kind:pdf invoice
/// ```
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find items whose words start with every given word: in names, titles, authors, keywords, folders and text.",
        discussion: """
            Name words come from splitting file names on separators, case changes and \
            letter/digit boundaries; matching ignores case and diacritics. Whole-word matches \
            rank before prefixes, then names before titles, authors and keywords, folder names \
            and text, then the most recently modified first. On a terminal, a match in the text \
            is followed by a dimmed line of the text around it; --json gives it as "snippet", \
            with "matchedIn".

            Spotlight's search words narrow the results: kind:pdf (document, pdf, image, \
            presentation, spreadsheet, text, other), date:today (yesterday, week, month, year), \
            modified: and created: with the same periods or a date (>2024-01-01, <2024-06, \
            2024-01-15), author:NAME, tag:NAME, name:WORD. Any other word with a colon is a \
            plain word. Example: searchlight search kind:pdf budget tag:work

            A search of three words or more, or with a question mark, is also searched by \
            meaning when a model is installed (`make model`): the items whose text is nearest \
            to the words in meaning, in any language, blend with those that hold the words. \
            --words searches the words alone (the model is never loaded), --meaning the \
            meaning alone. --explain says which joined and prints each result's similarity.

            Without --limit, the first 50 results are printed as soon as they are found, then \
            the rest of the ranking. --count counts the items that hold every word and ranks \
            none of them.
            """
    )

    /// The words and search words as typed.
    @Argument(help: "Words that the item's words must start with, and search words such as kind:pdf or tag:work.")
    var words: [String]

    /// `--explain`: how the search reads its words, on standard error.
    @Flag(help: "Print how each word is read (a prefix index, or how many indexed words it merges), how many items hold them all, and what search words compiled to (on standard error) before the results.")
    var explain = false

    /// `--names`: names, titles, keywords and folders only.
    @Flag(help: "Search names, titles, keywords and folder names only, not authors or text.")
    var names = false

    /// `--words`: no search by meaning.
    @Flag(name: .customLong("words"), help: "Rank by the words alone, not by meaning (the model is not loaded).")
    var wordsOnly = false

    /// `--meaning`: the search by meaning alone.
    @Flag(name: .customLong("meaning"), help: "Rank by meaning alone: the items whose text is nearest to the words in meaning.")
    var meaningOnly = false

    @OptionGroup var filter: DomainFilter

    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions

    /// Refuses no words, and options that contradict each other.
    ///
    /// - Throws: `ValidationError` (exit status 64).
    func validate() throws {
        if words.isEmpty { throw ValidationError("Give at least one word to search for.") }
        if wordsOnly && meaningOnly { throw ValidationError("--words and --meaning choose one ranking each; give one of them.") }
        if meaningOnly && names { throw ValidationError("--meaning searches the text; --names searches names only: give one of them.") }
    }

    /// Runs ``request``.
    ///
    /// - Throws: What ``SearchRequest/run()`` throws.
    func run() throws {
        try request.run()
    }

    /// What the options ask for, as a plain value.
    var request: SearchRequest {
        SearchRequest(words: words, explain: explain, names: names, domain: filter.domain, format: output.format,
                      relative: output.relative, count: output.count, limit: output.limit, index: indexOptions.choice,
                      mode: wordsOnly ? .words : meaningOnly ? .meaning : .automatic)
    }
}

/// A search as `searchlight search` runs it, without swift-argument-parser's property
/// wrappers: what ``SearchCommand`` parses, and what its fast path
/// (``SearchCommand/parseCommon(_:)``) makes directly (start-up).
///
/// Public so that the executable's fast path can run it; its fields stay internal.
public struct SearchRequest {
    /// The words and search words as typed, one argument each.
    var words: [String]
    /// `--explain`.
    var explain = false
    /// `--names`: the scope ``Searchlight/SearchScope/names``.
    var names = false
    /// `--domain`.
    var domain: String?
    /// `--json`, `-0`, or lines of paths.
    var format = ItemPrinter.Format.lines
    /// `--relative`: paths relative to the current folder (``ItemPaths``).
    var relative = false
    /// `--count`: print how many items match, not the items.
    var count = false
    /// `--limit`: at most this many results; `nil`, all, the first page printed first.
    var limit: Int?
    /// `--index` and the environment: which index to open.
    var index = IndexChoice()
    /// `--words`, `--meaning`, or neither.
    var mode = MeaningMode.automatic

    /// Runs the search and prints its results (or their count, or its explanation on standard
    /// error); the model of search by meaning is looked for only when the words may need it.
    ///
    /// Runs on the calling thread (the main thread of `searchlight`): the index is read with
    /// blocking calls. The results are printed as they are found, a page first when there is no
    /// limit; a search that finds nothing says so on standard error and succeeds. On a terminal,
    /// results come with their snippets (the items are read); in a pipe, only paths, which need
    /// no item read unless search words must be checked on them.
    ///
    /// - Throws: ``CommandFailure`` (no words: status 64; `--meaning` without a model: 1), or
    ///   what reading the search words or the index throws.
    public func run() throws {
        let parsed = try CommandFailure.wrap { try SearchWords(arguments: words) }
        if parsed.isEmpty { throw CommandFailure.fail("give at least one word to search for", code: 64) }
        let index = try self.index.openForReading()
        if let file = index as? SearchableIndex { ProcessLifetime.keep(file) }
        let printer = try ItemPrinter(format: format, index: index, relative: relative)
        var search = RankedSearch(parsed, domain: domain, scope: names ? .names : .all)
        search.history = OpenHistory.standard()
        search.mode = mode
        if mode == .automatic, !names, !explain, search.search.words.count >= 2, !search.readsAsQuestion {
            // Two words, which meaning answers only when they find nothing: [meaning] is read and
            // the model looked for then, and never when they find something.
            search.encoder = .deferred { MeaningModel.configured()?.questionEncoder }
        } else if mode == .meaning || (mode == .automatic && !names && (explain || search.search.words.count >= 2)) {
            // Only a search that may ask meaning (two words or more, which meaning answers when
            // they find nothing) reads [meaning] and looks for the model, which is loaded only
            // when a question is embedded: one word starts as fast as before.
            search.encoder = MeaningModel.configured()?.questionEncoder
            if mode == .meaning, search.encoder == nil {
                throw CommandFailure.fail("search by meaning needs a model: \(MeaningModel.advice)", code: 1)
            }
        }
        if explain {
            StandardError.write(try CommandFailure.wrap { try search.explanation(in: index, limit: limit) } + "\n")
        }
        var found: Int?
        if count {
            let count = try CommandFailure.wrap { try search.count(in: index) }
            printer.printCount(limit.map { min($0, count) } ?? count)
        } else if format == .json || (format == .lines && !names && SystemCall.isTerminal(1)) {
            found = try Self.inPages(limit: limit, paged: search.history?.isEmpty ?? true, printer: printer) { limit in
                let results = try CommandFailure.wrap { try search.results(in: index, limit: limit) }
                return (results.count, results.first?.spelling, { range in
                    for result in results[range] {
                        printer.print(result)
                        if explain && search.meaningJoins { Self.explainRanking(of: result) }
                    }
                })
            }
        } else if explain && search.meaningJoins {
            // Paths, each followed on standard error by how the blend saw it.
            found = try Self.inPages(limit: limit, paged: false, printer: printer) { limit in
                let results = try CommandFailure.wrap { try search.results(in: index, limit: limit) }
                return (results.count, results.first?.spelling, { range in
                    for result in results[range] {
                        printer.printPath(of: result.item.item.reference)
                        Self.explainRanking(of: result)
                    }
                })
            }
        } else {
            // Paths only: no need to fetch the items (unless search words must be checked on them).
            found = try Self.inPages(limit: limit, paged: search.history?.isEmpty ?? true, printer: printer) { limit in
                let (references, spelling) = try CommandFailure.wrap { try search.references(in: index, limit: limit) }
                return (references.count, spelling, { range in for reference in references[range] { printer.printPath(of: reference) } })
            }
        }
        printer.flush()
        // Nothing, even respelled: said in words, still a success (exit status 0).
        if found == 0, limit != 0 { Self.sayNothingFound(words) }
    }

    /// With `--explain`, on standard error after each result: what the words matched and how
    /// near it is in meaning (`words: content · similarity 0.872`).
    ///
    /// - Parameter result: A result of the blended ranking.
    static func explainRanking(of result: SearchResult) {
        let words = result.matchedIn == .meaning ? "words: no match" : "words: \(result.matchedIn.rawValue)"
        let similarity = result.similarity.map { String(format: "similarity %.3f", $0) } ?? "similarity: not among the nearest"
        StandardError.write("  \(words) · \(similarity)\n")
    }

    /// How many results a search without `--limit` prints first, before ranking the rest.
    static let firstPage = 50

    /// Prints the results `search` finds, with at most `limit` of them: without a limit, the
    /// first page is found (through the fast paths of a limited search) and printed at once,
    /// then every result is ranked and those after the page follow — the first page of a
    /// search is the start of its full ranking (the library's tests check it), so a person or
    /// a pipe sees the best results while thousands more are ranked.
    ///
    /// - Parameters:
    ///   - paged: Whether the first page may be printed first: not when items the person
    ///     opened move ahead (``OpenHistory``), which a page reorders only among its own.
    ///   - search: Finds at most `limit` results (all with `nil`) and says how many, the words
    ///     searched instead, and how to print a range of them.
    /// - Returns: How many results the first search found.
    static func inPages(limit: Int?, paged: Bool, printer: ItemPrinter,
                        _ search: (Int?) throws -> (count: Int, spelling: [String]?, print: (Range<Int>) -> Void)) throws -> Int {
        let first = try search(limit ?? (paged ? firstPage : nil))
        if let spelling = first.spelling { sayRespelled(spelling) }
        first.print(0..<first.count)
        guard limit == nil, paged, first.count == firstPage else { return first.count }
        printer.flush()
        let all = try search(nil)
        all.print(Swift.min(first.count, all.count)..<all.count)
        return first.count
    }

    /// Says on standard error that the results are those of the words as the index spells them.
    ///
    /// Standard output keeps only results, so a pipe never mistakes the note for a path.
    static func sayRespelled(_ words: [String]) {
        StandardError.write("searching also for \"\(words.joined(separator: " "))\"\n")
    }

    /// Says on standard error that no item matches the words as typed, nor any respelling of them.
    static func sayNothingFound(_ words: [String]) {
        StandardError.write("no item matches \"\(words.joined(separator: " "))\"\n")
    }
}
