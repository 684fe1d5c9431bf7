-- wrk script for Benchmarks/serve.sh: each request is the next path of the file named by
-- $PATHS (one per line: the prefixes a person types into the search box, or the thumbnails of
-- a page of results); done() prints the percentiles wrk does not print itself.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do table.insert(paths, line) end
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1], { ["Host"] = "127.0.0.1" })
end
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("RESULT requests=%d errors=%d non2xx=%d seconds=%.2f per_second=%.0f p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
    summary.requests, errors.connect + errors.read + errors.write + errors.timeout, errors.status,
    summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
