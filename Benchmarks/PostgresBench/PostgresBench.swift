// postgres-bench: the shared PostgreSQL index against the SQLite index, on the same items.
//
//   postgres-bench --url postgres://… --items 100000 [--sqlite PATH] [--repeats 30]
//
// Generates the same synthetic items as query-bench (``SyntheticItems``: names of one to three
// words, a year, a number; folders; types, dates, sizes, keywords) in four domains, then:
// - writes them to PostgreSQL with 1, 2 and 4 concurrent writers (each with its own
//   connection, a domain each, batches of 1 000 items; the database emptied between runs),
//   and once to SQLite (one writer, the same batches), and prints items per second;
// - prints the bytes per item of both (PostgreSQL: tables and indexes, after VACUUM);
// - times name searches (first 100) and queries on both, p50 and p95 in milliseconds.
// Run by Benchmarks/postgres.sh, which starts a throwaway cluster. Times are printed, never asserted.
import Foundation
import BenchmarkSupport
import Searchlight
import SearchlightPostgres

let domains = (0..<4).map { "host\($0):/srv/share" }

/// The batches of each domain.
func makeBatches(items: Int) -> [[IndexBatch]] {
    var generated = SyntheticItems()
    var batches = Array(repeating: [IndexBatch](), count: domains.count)
    for chunk in stride(from: 0, to: items, by: 1000) {
        let domain = (chunk / 1000) % domains.count
        var batch = IndexBatch()
        for number in chunk..<min(chunk + 1000, items) {
            batch.upsert(generated.item(number, domain: domains[domain]))
        }
        batches[domain].append(batch)
    }
    return batches
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func percentiles(repeats: Int, _ body: @Sendable () async throws -> Int) async throws -> (count: Int, p50: Double, p95: Double) {
    var times: [Double] = []
    var count = 0
    for _ in 0..<repeats {
        let start = ContinuousClock.now
        count = try await body()
        times.append(seconds(since: start) * 1000)
    }
    times.sort()
    return (count, times[times.count / 2], times[min(times.count - 1, Int(Double(times.count) * 0.95))])
}

@main
struct PostgresBench {
    static func main() async throws {
        var url: String?
        var items = 100_000
        var sqlitePath = "Benchmarks/work/postgres-bench.sqlite"
        var repeats = 30
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--url": url = arguments.popFirst()
            case "--items": items = Int(arguments.popFirst() ?? "") ?? items
            case "--sqlite": sqlitePath = arguments.popFirst() ?? sqlitePath
            case "--repeats": repeats = Int(arguments.popFirst() ?? "") ?? repeats
            default:
                FileHandle.standardError.write(Data("usage: postgres-bench --url URL [--items N] [--sqlite PATH] [--repeats N]\n".utf8))
                exit(64)
            }
        }
        guard let url else {
            FileHandle.standardError.write(Data("postgres-bench: --url postgres://… is required\n".utf8))
            exit(64)
        }

        let batches = makeBatches(items: items)
        let postgres = try await PostgresIndex(url: url)
        print("| \(items) items | items/s |\n|---|---|")
        for writers in [1, 2, 4] {
            try await postgres.deleteAllItems()
            try await postgres.vacuum()
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        let index = try await PostgresIndex(url: url, maximumConnections: 1)
                        defer { index.close() }
                        for domain in stride(from: writer, to: domains.count, by: writers) {
                            for batch in batches[domain] { try await index.apply(batch) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            print(String(format: "| PostgreSQL, %d writer%@ | %.0f |", writers, writers == 1 ? "" : "s",
                         Double(items) / seconds(since: start)))
        }
        try await postgres.vacuum()
        try? FileManager.default.removeItem(atPath: sqlitePath)
        try FileManager.default.createDirectory(atPath: (sqlitePath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let sqlite = try SearchableIndex(path: sqlitePath)
        let sqliteStart = ContinuousClock.now
        for domainBatches in batches { for batch in domainBatches { try sqlite.apply(batch) } }
        print(String(format: "| SQLite, 1 writer | %.0f |", Double(items) / seconds(since: sqliteStart)))

        let postgresBytes = try await postgres.statistics().byteCount
        let sqliteBytes = try await sqlite.statistics().byteCount
        print(String(format: "\n| bytes per item | PostgreSQL %.0f | SQLite %.0f |", Double(postgresBytes) / Double(items),
                     Double(sqliteBytes) / Double(items)))

        let reader = try SearchableIndex(path: sqlitePath, readOnly: true)
        print("\n| \(repeats) runs | results | PostgreSQL p50 ms | p95 ms | SQLite p50 ms | p95 ms |\n|---|---|---|---|---|---|")
        for query in [["xylophone"], ["quarterly", "rep"], ["zurich"], ["report"], ["canon", "budget", "2019"]] {
            let pg = try await percentiles(repeats: repeats) { try await postgres.searchIdentifiers(words: query, limit: 100).count }
            let lite = try await percentiles(repeats: repeats) { try reader.searchIdentifiers(words: query, limit: 100).count }
            print(String(format: "| search %@ (first 100) | %d / %d | %.2f | %.2f | %.2f | %.2f |", query.joined(separator: " "),
                         pg.count, lite.count, pg.p50, pg.p95, lite.p50, lite.p95))
        }
        for text in [#"contentType == 'image/png'"#, #"displayName == "*report*"cd"#, #"title == "quart*"cdw && size > 1000"#,
                     "contentModificationDate > $time.today(-30)", #"keywords == "canon""#] {
            let expression = try QueryExpression(parsing: text)
            let pg = try await percentiles(repeats: repeats) { try await postgres.query(expression, limit: 100).count }
            let lite = try await percentiles(repeats: repeats) { try reader.query(expression, limit: 100).count }
            print(String(format: "| query %@ (first 100) | %d / %d | %.2f | %.2f | %.2f | %.2f |", text, pg.count, lite.count,
                         pg.p50, pg.p95, lite.p50, lite.p95))
        }
        postgres.close()
    }
}
