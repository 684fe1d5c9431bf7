// meaning-bench: the cost of a search by meaning (Docs/Contract.md#search-by-meaning) at 10 k,
// 100 k and 1 M chunks, on the SQLite index, with the real model: the question embedded in
// process, then every stored vector compared (StoredVectors, the engine's int8 kernel) and the
// best 100 items read. Synthetic documents, 8 chunks each, random unit vectors (the scan's cost
// does not depend on their values). Also: bytes per chunk, and chunks embedded per second on
// one thread (passages of ~200 words). Run by Benchmarks/meaning.py; numbers are printed,
// never asserted. Pin it to one core (`taskset -c 0`) for the one-core figures.
//
// Usage: meaning-bench --model DIR --work DIR [--chunks 10000,100000,1000000] [--repeats N]
import Embedding
import Foundation
import Searchlight
import SystemPackage

struct Options {
    var model = ""
    var work = NSTemporaryDirectory()
    var chunks = [10_000, 100_000, 1_000_000]
    var repeats = 60

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--model": model = iterator.next() ?? ""
            case "--work": work = iterator.next() ?? work
            case "--chunks": chunks = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--repeats": repeats = Int(iterator.next() ?? "") ?? repeats
            default:
                FileHandle.standardError.write(Data("usage: meaning-bench --model DIR --work DIR [--chunks N,N] [--repeats N]\n".utf8))
                exit(64)
            }
        }
    }
}

let questions = [
    "how much room is left on my drives", "give a file a new name", "create a new folder",
    "wie viel Platz ist noch frei", "comment renommer un fichier", "cómo comprimir un archivo",
    "сколько памяти занято", "πώς δημιουργώ νέο φάκελο", "stop a program that hangs", "download a page from the internet",
]

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// A random unit vector of `dimensions`, from `generator`.
func randomUnit(_ dimensions: Int, _ generator: inout some RandomNumberGenerator) -> [Float] {
    let vector = (0..<dimensions).map { _ in Float.random(in: -1...1, using: &generator) }
    let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return vector.map { $0 / length }
}

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let options = Options(CommandLine.arguments)
let model = try EmbeddingModel.load(folder: FilePath(options.model))
let chunksPerDocument = 8

// Chunks embedded per second, one thread: passages of about 200 words (the pass's chunks are
// at most 256 tokens).
let passage = String(repeating: "The quick brown fox jumps over the lazy dog while the system reports disk usage. ", count: 14)
let passages = model.chunks(of: String(repeating: passage, count: 4), maxTokens: 256, overlap: 32, limit: 16)
_ = model.embed([passages[0]], as: .passage)
let embedStart = ContinuousClock.now
_ = model.embed(passages, as: .passage)
let embedSeconds = seconds(ContinuousClock.now - embedStart)
print("| embedding, one thread | \(passages.count) chunks of ≤ 256 tokens | "
      + String(format: "%.1f chunks/s", Double(passages.count) / embedSeconds) + " |")

for total in options.chunks {
    let path = options.work + "/meaning-bench-\(total).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let index = try SearchableIndex(path: path)
    let documents = total / chunksPerDocument
    var generator = SplitMix(state: UInt64(total))
    var written = 0
    while written < documents {
        let batch = (written..<min(documents, written + 5000)).map { number -> SearchableItem in
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = "document-\(number).txt"
            attributes.textContent = "synthetic document \(number)"
            return SearchableItem(uniqueIdentifier: ItemIdentifier("docs/document-\(number).txt"), domainIdentifier: "bench",
                                  attributeSet: attributes, identifierIsPath: true)
        }
        try index.indexItems(batch)
        written += batch.count
    }
    var after: [UInt8] = []
    while true {
        let work = try index.meaningWork(model: model.identifier, after: after, limit: 5000)
        guard let last = work.last else { break }
        after = last.key
        try index.storeMeaning(work.map { item in
            let vectors = StoredVectors((0..<chunksPerDocument).map { _ in randomUnit(model.dimensions, &generator) })
            return MeaningVectors(key: item.key, storedText: item.storedText, digest: Array(item.key) + [1],
                                  model: model.identifier, vectors: vectors)
        })
    }
    let progress = try index.meaningProgress(model: model.identifier)
    var whole: [Double] = [], scans: [Double] = []
    for round in 0..<(options.repeats + 2) {
        let question = questions[round % questions.count]
        let start = ContinuousClock.now
        let vector = model.embed([question], as: .query)[0]
        let embedded = ContinuousClock.now
        let results = try index.meaningResults(question: vector, model: model.identifier, domain: nil, limit: 100)
        let end = ContinuousClock.now
        precondition(results.count == min(100, documents))
        if round >= 2 {  // two rounds warm the page cache and the model's pages
            whole.append(seconds(end - start) * 1000)
            scans.append(seconds(end - embedded) * 1000)
        }
    }
    print("| \(total) chunks (\(documents) documents) | "
          + String(format: "question embedded + compared: p50 %.1f ms, p95 %.1f ms; compared alone: p50 %.1f ms, p95 %.1f ms",
                   percentile(whole, 0.5), percentile(whole, 0.95), percentile(scans, 0.5), percentile(scans, 0.95))
          + " | \(progress.bytes / max(progress.chunks, 1)) bytes a chunk |")
    index.close()
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
