-- wrk script for Benchmarks/serve.sh: each request is the next path of the file named by
-- $PATHS (one per line: the prefixes a person types into the search box, or the thumbnails of
-- a page of results); done() prints the percentiles wrk does not print itself. With
-- UNIQUE=1 every request carries a parameter of its own (&n=…), which the server ignores but
-- which makes it a request never seen before: no answer kept from an earlier one is given.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do table.insert(paths, line) end
local unique = os.getenv("UNIQUE") == "1"
local counter = 0
local thread = ""
init = function(args)
  -- Each wrk thread runs its own copy of this script: a name of its own keeps their paths apart.
  thread = string.sub(tostring({}), 8)
end
request = function()
  counter = counter + 1
  local path = paths[(counter % #paths) + 1]
  if unique then path = path .. "&n=" .. thread .. "-" .. counter end
  return wrk.format("GET", path, { ["Host"] = "127.0.0.1" })
end
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("RESULT requests=%d errors=%d non2xx=%d seconds=%.2f per_second=%.0f p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
    summary.requests, errors.connect + errors.read + errors.write + errors.timeout, errors.status,
    summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
