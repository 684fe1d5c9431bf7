import Foundation

/// A search as every surface runs it — `searchlight search`, `/api/search`, the desktop's
/// search providers — so that all give the same results: the words' ranking
/// (``IndexReader/searchResults(_:domain:limit:scope:)``), blended with the ranking by meaning
/// when meaning joins (``meaningJoins``), then the items the person opened moved ahead
/// (``OpenHistory``). Each surface reads the rankings it asks for (``Reading``) from its own
/// index; `searchlight search` also asks for paths alone (``references(in:limit:)``), a count
/// and an explanation.
///
/// The blend is reciprocal rank fusion: each item scores `1 / (k + rank)` in each ranking it is
/// in (``fusionConstant``), and the sums rank the results; a tie keeps the words' order. A known
/// phrase ranks its document first in both, a question whose words no document holds is
/// answered by meaning alone. Benchmarks/README.md ("Search by meaning") measures it against
/// the words alone.
///
/// ```swift
/// var search = RankedSearch(try SearchWords(parsing: "how do I rename a file"))
/// search.encoder = QuestionEncoder { text in (model.embed([text], as: .query)[0], model.identifier) }
/// let results = try search.results(in: index, limit: 20)
/// ```
public struct RankedSearch: Sendable {
    /// The words and search words (`kind:pdf`, `tag:work`, `modified:>2024-01-01`).
    public var search: SearchWords
    /// Only items of this domain, or every domain.
    public var domain: String?
    /// Where the words are looked for; meaning joins only a search of everything.
    public var scope: SearchScope
    /// The items opened before, which rank higher; none by default.
    public var history: OpenHistory?
    /// Which rankings join (`--words`, `--meaning`; by default meaning joins a question).
    public var mode: MeaningMode = .automatic
    /// The question's encoder: `nil` when no model is installed (words only).
    public var encoder: QuestionEncoder?

    /// `k` of reciprocal rank fusion: the weight of a ranking's first places against its later ones.
    public static let fusionConstant = 60.0
    /// The weight of a word match in the blend, against meaning's 1, unless it matches as a
    /// title does (``SearchResult/matchesLikeTitle``): a question's words found apart in a long
    /// document say less than its meaning. On Benchmarks/meaning.py's English questions the
    /// first five held the answer for 16 of 20 at 1 and 17 at 0.3 (known phrases unchanged:
    /// they match as a title).
    public static let wordsWeight = 0.3
    /// How many of the nearest items the ranking by meaning offers the blend (more when the page is larger).
    public static let meaningCandidates = 100
    /// How far below the nearest item's similarity an item by meaning may be and still be
    /// offered. The model's similarities are close together (multilingual-e5-small: the
    /// answer to a question at 0.81–0.90, the hundredth item 0.02–0.05 below the first, the
    /// nearest to an unrelated question 0.75–0.81): a margin, not an absolute floor, tells the
    /// items about the question from the rest. On Benchmarks/meaning.py's questions every
    /// answer in the first ten was within 0.02 of the first.
    public static let similarityMargin: Float = 0.03

    /// A search of `search` in `domain` (every domain by default) and `scope`, without history,
    /// by words alone until an ``encoder`` is set.
    ///
    /// - Parameters:
    ///   - search: The parsed words and search words.
    ///   - domain: Only this domain; `nil`: every domain.
    ///   - scope: Everything (the default), or names only, which meaning never joins.
    public init(_ search: SearchWords, domain: String? = nil, scope: SearchScope = .all) {
        self.search = search
        self.domain = domain
        self.scope = scope
    }

    /// The words of terms typed in a search box, search words included, in every domain,
    /// names and text (`searchlight search`'s defaults, the desktop's search providers').
    ///
    /// - Parameter terms: The terms as the command line or a provider gives them, joined by
    ///   spaces before they are parsed.
    /// - Throws: ``SearchWordsError`` for a search word whose value is malformed (`kind:sofa`).
    public init(terms: [String]) throws(SearchWordsError) {
        self.init(try SearchWords(parsing: terms.joined(separator: " ")))
    }

    /// Whether there is nothing to search for.
    public var isEmpty: Bool { search.isEmpty }

    /// Whether the words read as a question or a description rather than a name: three words
    /// or more, or a question mark. A word or two — a name being typed, the start-up path —
    /// is searched by its words alone.
    public var readsAsQuestion: Bool {
        search.words.count >= 3 || search.words.contains { $0.hasSuffix("?") || $0.hasSuffix("？") }
    }

    /// Whether this search asks the ranking by meaning, hence loads the model.
    public var meaningJoins: Bool {
        guard !search.words.isEmpty, encoder != nil else { return false }
        switch mode {
        case .words: return false
        case .meaning: return true
        case .automatic: return scope == .all && readsAsQuestion
        }
    }

    /// The best `limit` results (all when `nil`), best first: the rankings ``reading(limit:)``
    /// asks for, read from `index`.
    ///
    /// Synchronous: each ranking is read with `index`'s blocking methods, on the calling
    /// thread. Async code reads the same rankings through ``reading(limit:)`` and the index's
    /// async twins, as the server does.
    ///
    /// - Parameters:
    ///   - index: The index to read: SQLite's or PostgreSQL's.
    ///   - limit: At most this many results; `nil`: all of them.
    /// - Returns: The results, best first.
    /// - Throws: the index's errors; the encoder's (a model that cannot be loaded).
    public func results(in index: any IndexReader, limit: Int?) throws -> [SearchResult] {
        var reading = try reading(limit: limit)
        while let ranking = reading.next {
            try reading.record(index.results(of: ranking, for: self))
        }
        return try reading.results()
    }

    /// The question's vector and model, when meaning joins (``meaningJoins``): the model is
    /// loaded here, at the first search that needs it.
    /// - Throws: What the encoder throws when the model cannot be loaded (not
    ///   ``QuestionEncoder/Unavailable``, which is no question).
    public func encodedQuestion() throws -> (vector: [Float], model: String)? {
        guard meaningJoins, let encoder else { return nil }
        do {
            return try encoder.encode(question)
        } catch is QuestionEncoder.Unavailable {
            return nil
        }
    }

    /// The question's vector when the words (respelled too) found nothing and meaning did not
    /// join by itself: a search of two words or more (`wie umbenennen`) is then answered by
    /// meaning. One word never loads the model.
    /// - Throws: What the encoder throws when the model cannot be loaded.
    public func questionWhenNothingFound() throws -> (vector: [Float], model: String)? {
        guard mode == .automatic, !meaningJoins, search.words.count >= 2, scope == .all, let encoder else { return nil }
        do {
            return try encoder.encode(question)
        } catch is QuestionEncoder.Unavailable {
            return nil
        }
    }

    /// Meaning's answer to words that found nothing, even respelled (``questionWhenNothingFound()``);
    /// nil when meaning does not answer them.
    ///
    /// - Parameters:
    ///   - index: The index to read.
    ///   - limit: At most this many results; `nil`: all that meaning offers.
    /// - Returns: The results by meaning, the search words checked on them; `nil` when meaning
    ///   does not answer.
    /// - Throws: The encoder's error, or the index's when it cannot be read.
    public func answerWhenNothingFound(in index: any IndexReader, limit: Int?) throws -> [SearchResult]? {
        guard let question = try questionWhenNothingFound() else { return nil }
        let meaning = try index.meaningResults(question: question.vector, model: question.model, domain: domain,
                                               limit: meaningLimit(limit))
        return try combined(words: [], meaning: meaning, limit: limit)
    }

    /// How many of the nearest items to ask for a page of `limit`.
    ///
    /// - Parameter limit: The page's size; `nil`: no limit.
    /// - Returns: ``meaningCandidates``, or `limit` when it is larger.
    public func meaningLimit(_ limit: Int?) -> Int { Swift.max(Self.meaningCandidates, limit ?? 0) }

    /// How many word results to blend for a page of `limit`: as many as meaning offers, at least.
    ///
    /// - Parameter limit: The page's size; `nil`: no limit.
    /// - Returns: `limit`, raised to ``meaningCandidates``; `nil` without a limit.
    public func wordsLimit(_ limit: Int?) -> Int? { limit.map { Swift.max($0, Self.meaningCandidates) } }

    /// Whether the words' ranking is read: always, but with `--meaning`.
    public var wordsJoin: Bool { mode != .meaning || search.words.isEmpty }

    /// The results of the rankings read: the words' (as typed when meaning joins: a question's
    /// words respelled would find what it did not ask for) and meaning's, blended, the search
    /// words (`kind:pdf`) checked on meaning's, the page cut at `limit`, the items opened
    /// before moved ahead. What every surface runs, whichever store it read the rankings from.
    ///
    /// - Parameters:
    ///   - words: The words' ranking, best first.
    ///   - meaning: The ranking by meaning, best first; empty when meaning did not join.
    ///   - limit: At most this many results; `nil`: all of them.
    /// - Returns: The blended page, best first.
    /// - Throws: ``QueryParseError`` when a search word's query is malformed.
    public func combined(words: [SearchResult], meaning: [SearchResult], limit: Int?) throws -> [SearchResult] {
        var meaning = meaning
        if !meaning.isEmpty, let queryString = search.queryString {
            let expression = try QueryExpression(parsing: queryString)
            let now = Date()
            meaning = meaning.filter { expression.matches($0.item, now: now) }
        }
        let blended = meaning.isEmpty ? words : Self.fused(words: wordsJoin ? words : [], meaning: meaning)
        var results = Array(blended.prefix(limit ?? .max))
        if let history { results = history.reordered(results) }
        return results
    }

    /// The question asked of the ranking by meaning: the plain words as typed.
    var question: String { search.words.joined(separator: " ") }

    /// Reciprocal rank fusion of two rankings: an item in both keeps its word match (field,
    /// snippet) and gains its similarity. Word results that match as a title does
    /// (``SearchResult/matchesLikeTitle``: the name, the title, a phrase of the text) come
    /// first, in the words' order: on the known-item phrases of Benchmarks/words.py, plain
    /// fusion put the document first for 145 of 200 phrases against 192 by the words alone. Meaning's items beyond ``similarityMargin`` of its
    /// first neither score nor join (a question lists what is about it, not every item that
    /// has vectors); a word result among them still shows its similarity.
    static func fused(words: [SearchResult], meaning: [SearchResult]) -> [SearchResult] {
        struct Key: Hashable { var domain: String; var identifier: ItemIdentifier }
        func key(_ result: SearchResult) -> Key {
            Key(domain: result.item.item.domainIdentifier, identifier: result.item.item.uniqueIdentifier)
        }
        var scored: [Key: (result: SearchResult, score: Double, order: Int)] = [:]
        for (rank, result) in words.enumerated() {
            // A match as telling as a title (a known phrase) stays ahead of what meaning adds;
            // the other word matches of a question count less than meaning's.
            let score = result.matchesLikeTitle ? 1 + 1 / (fusionConstant + Double(rank + 1))
                : wordsWeight / (fusionConstant + Double(rank + 1))
            scored[key(result)] = (result, score, rank)
        }
        let floor = (meaning.first?.similarity ?? -.infinity) - similarityMargin
        for (rank, result) in meaning.enumerated() {
            let offered = (result.similarity ?? -.infinity) >= floor
            let score = offered ? 1 / (fusionConstant + Double(rank + 1)) : 0
            if let known = scored[key(result)] {
                var merged = known.result
                merged.similarity = result.similarity
                scored[key(result)] = (merged, known.score + score, known.order)
            } else if offered {
                scored[key(result)] = (result, score, words.count + rank)
            }
        }
        return scored.values.sorted { $0.score != $1.score ? $0.score > $1.score : $0.order < $1.order }.map(\.result)
    }

    /// How the search is read, for `--explain`: which rankings join, and why.
    public var meaningExplanation: String {
        switch (mode, encoder != nil) {
        case (.words, _): return "meaning: not asked (--words)"
        case (_, false): return "meaning: no model installed (words only; `make model` or Packaging/install-model adds one)"
        case (.meaning, true): return "meaning: ranking by meaning alone (--meaning)"
        case (.automatic, true):
            if meaningJoins {
                return "meaning: joins (the words read as a question); words and meaning blended by reciprocal rank fusion, k = \(Int(Self.fusionConstant))"
            }
            return scope == .names ? "meaning: not for a search of names"
                : "meaning: not for one or two words (a name); three words or a question mark ask it, and two words that find nothing"
        }
    }
}
