import Foundation
import SystemCalls
import SystemPackage

/// The items a person opened through Searchlight (`searchlight open`, the page, the desktop's
/// search), so that they rank higher later: per user, on this machine only (never in an index,
/// shared or not), bounded, and fading with time as Firefox's frecency does.
///
/// Kept in `$XDG_STATE_HOME/searchlight/opened.tsv` (`~/.local/state/…`), mode 0600: a line per
/// opening, `SECONDS<TAB>DOMAIN<TAB>BASE64 IDENTIFIER`. When it holds more than
/// ``maximumLines`` lines it is written again with the ``keptItems`` items of highest score,
/// each with its last ``visitsPerItem`` openings.
///
/// An item's score sums its last ``visitsPerItem`` openings, each weighted by its age: 100 up
/// to 4 days, 70 up to 14, 50 up to 31, 30 up to 90, 10 after. ``reordered(_:now:)`` moves
/// opened items ahead of the results that matched in the same field, highest score first;
/// every other order stays.
///
/// ```swift
/// let history = OpenHistory.standard()
/// history.record(domain: "home", identifier: "Documents/report.pdf")
/// let results = history.reordered(try index.searchResults(words: ["report"], limit: 20))
/// ```
///
/// A value that names a file; every call reads or writes the file then, so two processes see
/// each other's openings. Writes are not locked: two processes that record at the same moment
/// as the file is compacted may lose one opening, which only weakens a ranking hint.
public struct OpenHistory: Sendable {
    /// The file the history is kept in.
    public let path: String

    /// More lines than this make the next ``record(domain:identifier:at:)`` compact the file.
    static let maximumLines = 4_000
    /// The items a compaction keeps, highest score first.
    static let keptItems = 1_000
    /// The openings of an item that count toward its score, and that a compaction keeps.
    static let visitsPerItem = 10

    /// The history kept in the file at `path` (it need not exist yet).
    ///
    /// - Parameter path: The file; its folder is made (mode 0700) at the first recording.
    public init(path: String) {
        self.path = path
    }

    /// The history of the person running this process.
    /// (`environment` looks up one variable: by default this process's, without building the
    /// dictionary of them all that `ProcessInfo` makes, a cost every search paid at start-up.)
    ///
    /// - Parameter environment: Looks up an environment variable; this process's by default.
    /// - Returns: The history at `$XDG_STATE_HOME/searchlight/opened.tsv` (an absolute
    ///   `XDG_STATE_HOME` only), else at `$HOME/.local/state/searchlight/opened.tsv`.
    public static func standard(environment: (String) -> String? = SystemCall.environmentValue) -> OpenHistory {
        let state = environment("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment("HOME") ?? NSHomeDirectory()) + "/.local/state"
        return OpenHistory(path: state + "/searchlight/opened.tsv")
    }

    /// Records that the item was opened. Failing to record is never an error of the opening.
    ///
    /// Appends one line, then reads the file back to count its lines, compacting it past
    /// ``maximumLines`` (the item just opened is always kept). Blocks for that file I/O.
    ///
    /// Each call opens the file, seeks to its end, writes and closes it: two calls at the same
    /// moment, from threads or processes, may write over each other's line.
    ///
    /// - Parameters:
    ///   - domain: The opened item's domain.
    ///   - identifier: The opened item's identifier.
    ///   - date: When it was opened.
    public func record(domain: String, identifier: ItemIdentifier, at date: Date = Date()) {
        let line = "\(Int(date.timeIntervalSince1970))\t\(Self.escaped(domain))\t\(Data(identifier.bytes).base64EncodedString())\n"
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // Appended in one write with `O_APPEND`: two processes recording at once (the page and
        // the desktop) each add their line; seeking to the end and writing let one overwrite the
        // other's.
        guard let file = try? SystemCall.open(Array(path.utf8), .writeOnly, options: [.append, .create, .closeOnExec],
                                              permissions: [.ownerReadWrite]) else { return }
        defer { SystemCall.close(file) }
        try? SystemCall.write(file, Array(line.utf8))
        let visits = self.visits()
        if visits.values.reduce(0, { $0 + $1.count }) > Self.maximumLines {
            compact(visits, now: date, keeping: Key(domain: domain, identifier: identifier.bytes))
        }
    }

    /// Each opened item's score now (see the type's documentation).
    ///
    /// Reads the whole file at each call.
    ///
    /// - Parameter now: The instant the openings' ages are counted from.
    /// - Returns: The score of each item opened at least once.
    public func scores(now: Date = Date()) -> [Key: Double] {
        visits().mapValues { Self.score($0, now: now) }
    }

    /// `results` with the opened items moved ahead of the results that matched in the same
    /// field next to them (a run of results of one ``SearchResult/matchedIn``), highest score first.
    ///
    /// An opened item moves only within its run, never past a result that matched in another
    /// field: a file opened yesterday whose text matched stays behind the files before it whose
    /// name matched.
    ///
    /// - Parameters:
    ///   - results: A ranked page, best first.
    ///   - now: The instant the openings' ages are counted from.
    /// - Returns: The same results, opened ones moved ahead within their field's run.
    public func reordered(_ results: [SearchResult], now: Date = Date()) -> [SearchResult] {
        let scores = self.scores(now: now)
        guard !scores.isEmpty else { return results }
        return Self.reordered(results, field: \.matchedIn) { scores[Key($0.item.item)] ?? 0 }
    }

    /// Whether nothing was ever opened (or the history cannot be read).
    ///
    /// One `stat(2)`: true when the file does not exist. A file that exists counts as a
    /// history even when it holds no line.
    public var isEmpty: Bool { (try? SystemCall.status(followingLinksOf: path)) == nil }

    /// An item of a domain.
    public struct Key: Hashable, Sendable {
        /// The item's domain.
        public var domain: String
        /// The item's identifier, as bytes.
        public var identifier: [UInt8]

        /// The item `identifier` of `domain`.
        public init(domain: String, identifier: [UInt8]) {
            self.domain = domain
            self.identifier = identifier
        }

        init(_ item: SearchableItem) { self.init(domain: item.domainIdentifier, identifier: item.uniqueIdentifier.bytes) }
    }

    // MARK: Private

    /// `elements` with each run of one `field` sorted by `score`, highest first, ties in
    /// their order; the runs stay where they are.
    private static func reordered<Element, Field: Equatable>(_ elements: [Element], field: (Element) -> Field,
                                                            score: (Element) -> Double) -> [Element] {
        var ordered: [Element] = []
        ordered.reserveCapacity(elements.count)
        var start = 0
        while start < elements.count {
            var end = start + 1
            while end < elements.count, field(elements[end]) == field(elements[start]) { end += 1 }
            ordered += elements[start..<end].enumerated().sorted { lhs, rhs in
                let left = score(lhs.element), right = score(rhs.element)
                return left != right ? left > right : lhs.offset < rhs.offset
            }.map(\.element)
            start = end
        }
        return ordered
    }

    /// The sum of the last ``visitsPerItem`` openings' weights by age (see the type's documentation).
    ///
    /// The visits are in the order they were recorded, oldest first.
    private static func score(_ visits: [Date], now: Date) -> Double {
        visits.suffix(visitsPerItem).reduce(0) { total, visit in
            let days = now.timeIntervalSince(visit) / 86_400
            let weight: Double = days <= 4 ? 100 : days <= 14 ? 70 : days <= 31 ? 50 : days <= 90 ? 30 : 10
            return total + weight
        }
    }

    /// Every opening in the file, by item, in file order; a line that does not read is skipped.
    private func visits() -> [Key: [Date]] {
        // `stat` first: a search that finds no history pays no FileManager (start-up).
        guard (try? SystemCall.status(followingLinksOf: path)) != nil,
              let data = FileManager.default.contents(atPath: path) else { return [:] }
        var visits: [Key: [Date]] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 3, let seconds = Double(String(decoding: fields[0], as: UTF8.self)),
                  let identifier = Data(base64Encoded: Data(fields[2])) else { continue }
            let key = Key(domain: Self.unescaped(String(decoding: fields[1], as: UTF8.self)), identifier: Array(identifier))
            visits[key, default: []].append(Date(timeIntervalSince1970: seconds))
        }
        return visits
    }

    /// Writes the history again with the best items, `opened` (just recorded) among them.
    ///
    /// Written beside the file, then renamed over it: a reader sees the old history or the new.
    private func compact(_ visits: [Key: [Date]], now: Date, keeping opened: Key) {
        let ranked = visits.filter { $0.key != opened }
            .sorted { Self.score($0.value, now: now) > Self.score($1.value, now: now) }
        let kept = ranked.prefix(Self.keptItems - 1) + [(key: opened, value: visits[opened] ?? [now])]
        var text = ""
        for (key, dates) in kept {
            for date in dates.sorted().suffix(Self.visitsPerItem) {
                text += "\(Int(date.timeIntervalSince1970))\t\(Self.escaped(key.domain))\t\(Data(key.identifier).base64EncodedString())\n"
            }
        }
        let temporary = path + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { return }
        try? SystemCall.rename(temporary, to: path)
    }

    /// A domain without tabs or line breaks (a domain is a path or HOST:/path; these are rare).
    private static func escaped(_ domain: String) -> String {
        domain.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\t", with: "%09")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func unescaped(_ domain: String) -> String {
        domain.replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%09", with: "\t")
            .replacingOccurrences(of: "%25", with: "%")
    }
}
