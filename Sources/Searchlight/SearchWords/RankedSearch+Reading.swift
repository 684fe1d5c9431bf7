extension RankedSearch {
    /// One ranking a search reads from an index, as ``Reading`` asks for it: the same reads
    /// whether the index is read synchronously (``IndexReader``'s requirements: the command line, the
    /// desktop's search providers) or asynchronously (the server's reads).
    ///
    /// A value that says what to read, never how: each surface reads it with the call its index
    /// has, blocking or awaited.
    public enum Ranking: Sendable, Equatable {
        /// The words' ranking, respelled when the words as typed find nothing
        /// (``IndexReader/searchResults(_:domain:limit:scope:)``).
        case words(limit: Int?)
        /// The words' ranking as typed, never respelled (``IndexReader/typedResults(_:domain:limit:scope:)``).
        case typedWords(limit: Int?)
        /// The `limit` items nearest to `question`, a unit vector of `model`
        /// (``IndexReader/meaningResults(question:model:domain:limit:)``).
        case meaning(question: [Float], model: String, limit: Int)
    }

    /// The one composition of a search, a ranking at a time: the caller reads each ranking
    /// ``next`` names from its index, hands the results to ``record(_:)``, and takes
    /// ``results()`` when no ranking is left. Which rankings are read, with which limits, how
    /// respelled words join and how the rankings are blended is decided here only, so that every
    /// surface answers alike whatever its index's calls are.
    ///
    /// ```swift
    /// var reading = try search.reading(limit: 20)
    /// while let ranking = reading.next {
    ///     try reading.record(await index.results(of: ranking, for: search))
    /// }
    /// let results = try reading.results()
    /// ```
    ///
    /// At most three rankings are read for one search: meaning, the words as typed, and the words
    /// respelled; a search of words alone reads one, and a second (meaning) only when the words
    /// find nothing. A value: each search has its own, on one task or thread.
    public struct Reading: Sendable {
        /// The search being read.
        public let search: RankedSearch
        /// The results wanted, all when `nil`.
        public let limit: Int?
        /// The ranking to read next; `nil` once every ranking the search needs is recorded.
        public private(set) var next: Ranking?
        /// Which ranking the next recorded results are.
        private var step: Step
        /// The words' ranking recorded, as typed or respelled.
        private var words: [SearchResult] = []
        /// Meaning's ranking recorded, when meaning joins.
        private var meaning: [SearchResult] = []

        /// What the results recorded next are.
        private enum Step {
            /// The words' ranking, when meaning does not join.
            case words
            /// Meaning's answer to words that found nothing, even respelled.
            case meaningWhenNothingFound
            /// Meaning's ranking of a question.
            case meaning
            /// The words as typed, blended with meaning's.
            case typedWords
            /// The words respelled, after the words as typed found nothing beside meaning.
            case respelledWords
            /// Every ranking is recorded: ``next`` is `nil`.
            case done
        }

        /// Starts reading `search`; the question is embedded here when meaning joins.
        ///
        /// Embedding the question runs the model (loaded on first use): the one costly step that
        /// happens here rather than in an index.
        ///
        /// - Throws: the encoder's errors (a model that cannot be loaded).
        init(_ search: RankedSearch, limit: Int?) throws {
            self.search = search
            self.limit = limit
            if let question = try search.encodedQuestion() {
                step = .meaning
                next = .meaning(question: question.vector, model: question.model, limit: search.meaningLimit(limit))
            } else {
                step = .words
                next = .words(limit: limit)
            }
        }

        /// Records the results of the ranking ``next`` named, and names the following one.
        ///
        /// Recording after ``next`` became `nil` is a programming error and stops the process.
        ///
        /// - Throws: the encoder's errors, when words that found nothing are asked of meaning.
        /// - Parameter found: The results of the ranking ``next`` named, as the index returned them.
        public mutating func record(_ found: [SearchResult]) throws {
            switch step {
            case .words:
                words = found
                if found.isEmpty, let question = try search.questionWhenNothingFound() {
                    step = .meaningWhenNothingFound
                    next = .meaning(question: question.vector, model: question.model, limit: search.meaningLimit(limit))
                } else {
                    finish()
                }
            case .meaningWhenNothingFound:
                meaning = found
                finish()
            case .meaning:
                meaning = found
                if search.wordsJoin {
                    step = .typedWords
                    next = .typedWords(limit: search.wordsLimit(limit))
                } else {
                    finish()
                }
            case .typedWords:
                words = found
                if found.isEmpty {
                    step = .respelledWords
                    next = .words(limit: meaning.isEmpty ? limit : search.wordsLimit(limit))
                } else {
                    finish()
                }
            case .respelledWords:
                // The words respelled join when meaning found nothing, or where they match as a
                // title does (a known phrase typed with a typo: 34 of 190 such phrases found
                // first without this, 182 by the words alone); otherwise a question's words
                // respelled would find what it did not ask for.
                words = meaning.isEmpty ? found : found.filter(\.matchesLikeTitle)
                finish()
            case .done:
                preconditionFailure("every ranking of the search is already recorded")
            }
        }

        /// Marks every ranking read: ``next`` becomes `nil`.
        private mutating func finish() {
            step = .done
            next = nil
        }

        /// The rankings recorded, blended (``RankedSearch/combined(words:meaning:limit:)``).
        /// - Throws: ``QueryParseError`` when the search words cannot be checked on meaning's results.
        public func results() throws -> [SearchResult] {
            try search.combined(words: words, meaning: meaning, limit: limit)
        }
    }

    /// The composition of this search for a page of `limit` results (``Reading``).
    ///
    /// - Throws: the encoder's errors (a model that cannot be loaded).
    /// - Parameter limit: The results wanted; `nil` for all of them.
    /// - Returns: The reading, whose ``Reading/next`` names the first ranking to read.
    public func reading(limit: Int?) throws -> Reading {
        try Reading(self, limit: limit)
    }
}

extension IndexReader {
    /// One ranking of `search`, read from this index (``RankedSearch/Reading``).
    ///
    /// Blocks the calling thread for the read.
    ///
    /// - Throws: the index's errors.
    /// - Parameters:
    ///   - ranking: What ``RankedSearch/Reading/next`` named.
    ///   - search: The search being read, for its words, domain and scope.
    /// - Returns: The ranking's results, best first.
    public func results(of ranking: RankedSearch.Ranking, for search: RankedSearch) throws -> [SearchResult] {
        switch ranking {
        case .words(let limit):
            return try searchResults(search.search, domain: search.domain, limit: limit, scope: search.scope)
        case .typedWords(let limit):
            return try typedResults(search.search, domain: search.domain, limit: limit, scope: search.scope)
        case .meaning(let question, let model, let limit):
            return try meaningResults(question: question, model: model, domain: search.domain, limit: limit)
        }
    }
}

extension IndexReader {
    /// One ranking of `search`, awaited from this index (``RankedSearch/Reading``): the
    /// server's reads, which search everything (its searches have no scope).
    ///
    /// - Throws: the index's errors; `CancellationError` or the index's when the task is cancelled.
    public func results(of ranking: RankedSearch.Ranking, for search: RankedSearch) async throws -> [SearchResult] {
        switch ranking {
        case .words(let limit):
            return try await searchResults(search.search, domain: search.domain, limit: limit)
        case .typedWords(let limit):
            return try await typedResults(search.search, domain: search.domain, limit: limit)
        case .meaning(let question, let model, let limit):
            return try await meaningResults(question: question, model: model, domain: search.domain, limit: limit)
        }
    }
}
