// query-bench: in-process latency of name search and of the query language on a large index.
//
//   query-bench --items 1000000 --index Benchmarks/work/query-1M.sqlite [--repeats 50] [--only "WORDS"] [--all]
//   query-bench --content --items 100000 --index Benchmarks/work/content-100k.sqlite
//
// Builds the index once with the Searchlight library (synthetic items shaped like a file
// tree: realistic names, types, dates, sizes, pixel sizes), reuses it afterwards, then times
// each search and query `repeats` times and prints p50 and p95 in milliseconds, with the
// number of results, and the same percentiles of the CPU time of the searching thread (wall
// time counts other work sharing the machine too). `--only` times that one name search and
// stops, for profiling; `--all` times each name search without a limit too. Times are measured, never asserted.
// `--content` gives every item a text (300–900 words drawn from a 20 000-word vocabulary by
// Zipf's law, as Benchmarks/make_tree.py writes them, about 3.3 KB) and times searches of text
// words and phrase queries instead.
import Foundation
import BenchmarkSupport
import Searchlight

var items = 1_000_000
var path = "Benchmarks/work/query-bench.sqlite"
var repeats = 50
var only: [String]?
var all = false
var content = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--items": items = Int(arguments.popFirst() ?? "") ?? items
    case "--index": path = arguments.popFirst() ?? path
    case "--repeats": repeats = Int(arguments.popFirst() ?? "") ?? repeats
    case "--only": only = arguments.popFirst().map { $0.split(separator: " ").map(String.init) }
    case "--all": all = true
    case "--content": content = true
    default:
        FileHandle.standardError.write(Data("usage: query-bench [--items N] [--index PATH] [--repeats N] [--only WORDS] [--all] [--content]\n".utf8))
        exit(64)
    }
}

/// The words of generated texts: English function words (the most frequent), the name words,
/// then syllable words for the long tail, drawn by Zipf's law (word k with weight 1 / k^1.07).
struct TextGenerator {
    static let functionWords = """
        the of and to a in is that for it as was with be by on not he this are or his from at which but have
        an they you were her she there been one all we their has would when if so no will more can who its
        out up about them into than other some what only time could these also
        """.split(whereSeparator: \.isWhitespace).map(String.init)
    static let syllables = "ka lo mi ne ra tu se vo pa di fe gu ha ji ko lu ma ni po qu ri sa te vi wa xe yo zu".split(separator: " ").map(String.init)

    let vocabulary: [String]
    let cumulative: [Double]

    init(size: Int = 20_000) {
        var words = Self.functionWords
        var seen = Set(words)
        for word in ["report", "invoice", "holiday", "budget", "meeting", "notes", "draft", "summary", "project",
                     "design", "contract", "résumé", "letter", "plan", "review", "agenda", "quarterly", "annual",
                     "client", "team", "travel", "recipe", "manual", "thesis", "canon", "zürich", "café", "müller"]
        where seen.insert(word).inserted { words.append(word) }
        var random = Generator(state: 7)
        while words.count < size {
            let word = (0..<(2 + random.next(3))).map { _ in Self.syllables[random.next(Self.syllables.count)] }.joined()
            if seen.insert(word).inserted { words.append(word) }
        }
        vocabulary = words
        var total = 0.0
        cumulative = (1...words.count).map { rank in
            total += 1 / pow(Double(rank), 1.07)
            return total
        }
    }

    func word(_ random: inout Generator) -> String {
        let target = Double(random.next(1 << 30)) / Double(1 << 30) * cumulative[cumulative.count - 1]
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return vocabulary[low]
    }

    /// A document: sentences of 8–25 words in paragraphs.
    func text(_ random: inout Generator) -> String {
        let count = 300 + random.next(601)
        var text = ""
        var inSentence = 0
        for index in 0..<count {
            var word = word(&random)
            if inSentence == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
            text += word
            inSentence += 1
            if inSentence >= 8 + random.next(18) || index == count - 1 {
                text += random.next(5) == 0 ? ".\n\n" : ". "
                inSentence = 0
            } else {
                text += " "
            }
        }
        return text
    }
}

@MainActor
func makeIndex() throws -> SearchableIndex {
    let exists = FileManager.default.fileExists(atPath: path)
    let index = try SearchableIndex(path: path)
    if exists, (try index.statistics().domains.first?.itemCount ?? 0) == items { return index }
    try index.deleteAllItems()
    var generated = SyntheticItems()
    let started = Date()
    let texts = TextGenerator()
    var textRandom = Generator(state: 42)
    var textBytes = 0
    for chunk in stride(from: 0, to: items, by: 5000) {
        var batch = IndexBatch()
        for number in chunk..<min(chunk + 5000, items) {
            var item = generated.item(number, domain: "bench")
            if content {
                item.attributeSet.textContent = texts.text(&textRandom)
                textBytes += item.attributeSet.textContent!.utf8.count
            }
            batch.upsert(item)
        }
        try index.apply(batch)
    }
    let bytes = try index.statistics().byteCount
    print(String(format: "built %d items in %.1f s: %.0f bytes per item", items, Date().timeIntervalSince(started),
                 Double(bytes) / Double(items)))
    if content {
        print(String(format: "text: %.0f bytes per item; index / text = %.2f", Double(textBytes) / Double(items),
                     Double(bytes) / Double(max(1, textBytes))))
    }
    return index
}

/// CPU time of the calling thread, in milliseconds: unlike wall time, not inflated when
/// other work shares the machine.
func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

@MainActor
func measure(_ label: String, _ body: () throws -> Int) rethrows {
    var times: [Double] = []
    var cpuTimes: [Double] = []
    var count = 0
    for _ in 0..<repeats {
        let start = ContinuousClock.now
        let cpuStart = threadCPUMilliseconds()
        count = try body()
        cpuTimes.append(threadCPUMilliseconds() - cpuStart)
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    func percentile(_ values: [Double], _ fraction: Double) -> String {
        let sorted = values.sorted()
        return String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
    }
    defer { fflush(nil) }  // each row as soon as it is measured, also into a file
    print("| \(label) | \(count) | \(percentile(times, 0.5)) | \(percentile(times, 0.95)) | \(percentile(cpuTimes, 0.5)) | \(percentile(cpuTimes, 0.95)) |")
}

do {
    // Measured read-only, as `searchlight search` and `query` open it.
    _ = try makeIndex()
    let index = try SearchableIndex(path: path, readOnly: true)
    print("\n| in process, \(items) items\(content ? " with text" : ""), \(repeats) runs | results | p50 ms | p95 ms | CPU p50 ms | CPU p95 ms |\n|---|---|---|---|---|---|")
    if content {
        // Text words from the most frequent to rare (ranks 1, 60, 400, 3 000, 15 000 of the
        // vocabulary), two words, a prefix, a name word, then the same words as phrase queries.
        let vocabulary = TextGenerator().vocabulary
        let searches = only.map { [$0] } ?? [["the"], [vocabulary[59]], [vocabulary[399]], [vocabulary[2999]],
                                             [vocabulary[14999]], [vocabulary[399], vocabulary[2999]], ["repo"],
                                             ["xylophone"], ["quarterly", "rep"]]
        for words in searches {
            try measure("search \(words.joined(separator: " ")) (first 100)") {
                try index.searchIdentifiers(words: words, limit: 100).count
            }
            try measure("search \(words.joined(separator: " ")) (first 100, with snippets)") {
                try index.searchResults(words: words, limit: 100).count
            }
            try measure("search --names \(words.joined(separator: " ")) (first 100)") {
                try index.searchIdentifiers(words: words, limit: 100, scope: .names).count
            }
            if all {
                try measure("search \(words.joined(separator: " ")) (all)") { try index.searchIdentifiers(words: words).count }
            }
        }
        if only != nil { exit(0) }
        // Typos (issue 31): two middle letters of a word swapped; the look-up of the nearest
        // indexed words, then the whole search that finds nothing as typed and searches again.
        for rank in [59, 399, 2999, 14999] {
            var letters = Array(vocabulary[rank])
            guard letters.count >= 4 else { continue }
            letters.swapAt(letters.count / 2 - 1, letters.count / 2)
            let typo = String(letters)
            try measure("spelling correction of \(typo) (\(vocabulary[rank]))") {
                try index.spellingCorrection(words: [typo])?.count ?? 0
            }
            try measure("search \(typo) with its correction (first 100)") {
                try index.searchResults(SearchWords(parsing: typo), domain: nil, limit: 100).count
            }
        }
        // Two rare words, each in some text, seldom together (issue 48): when they find
        // nothing, each is tried corrected too, up to six respelled searches a round.
        let apart = "\(vocabulary[14999]) \(vocabulary[14998])"
        try measure("spellings of \(apart), corrections of indexed words included") {
            try index.spellings(of: apart.split(separator: " ").map(String.init), correctingIndexed: true).count
        }
        try measure("search \(apart), respelled when nothing is found (first 100)") {
            try index.searchResults(SearchWords(parsing: apart), domain: nil, limit: 100).count
        }
        try measure("search \(vocabulary[399]) (count)") { try index.countMatches(words: [vocabulary[399]]) }
        for phrase in ["\(vocabulary[399]) \(vocabulary[0])", "\(vocabulary[2999]) \(vocabulary[14999])"] {
            try measure("kMDItemTextContent == \"\(phrase)\"cdw (first 100)") {
                try index.query("kMDItemTextContent == \"\(phrase)\"cdw", limit: 100).count
            }
        }
        exit(0)
    }
    // A common word, a prefix last word, a folded one, a very common one, a rare one (one item's
    // number) and three words at once.
    for query in only.map({ [$0] }) ?? [["xylophone"], ["quarterly", "rep"], ["zurich"], ["report"], ["424242"], ["canon", "budget", "2019"]] {
        try measure("search \(query.joined(separator: " ")) (first 100)") {
            try index.searchIdentifiers(words: query, limit: 100).count
        }
        if all {
            try measure("search \(query.joined(separator: " ")) (all)") { try index.searchIdentifiers(words: query).count }
        }
    }
    if only != nil { exit(0) }
    try measure("search report (count)") { try index.countMatches(words: ["report"]) }
    let queries = [
        ("selective: contentType == \"image/png\" (first 100)", #"contentType == "image/png""#),
        ("wildcard: displayName == \"*xylophone*\"c (first 100)", #"displayName == "*xylophone*"c"#),
        ("word: * == \"canon\"cdw (first 100)", #"* == "canon"cdw"#),
        ("date range: last 7 days (first 100)", "contentModificationDate > $time.today(-7)"),
        ("compound (first 100)", #"(title == "report*"cd || keywords == "invoice"c) && contentModificationDate > $time.this_year && size > 1000000"#),
        ("image and pixels (first 100)", #"contentTypeTree == "image" && pixelWidth >= 4000"#),
    ]
    for (label, query) in queries {
        try measure(label) { try index.query(query, limit: 100).count }
    }
} catch {
    FileHandle.standardError.write(Data("query-bench: \(error)\n".utf8))
    exit(1)
}
