#!/usr/bin/env python3
"""Compares the /api/search answers of two `searchlight serve` builds byte for byte.

    Benchmarks/serve-compare.py OLD_BINARY NEW_BINARY INDEX

Starts both servers on free loopback ports over the same index (the query-bench index of
Benchmarks/serve.sh: Benchmarks/work/serve/search-100000.sqlite) and asks each the same
requests: one-letter and two-letter prefixes, whole words, multi-word prefixes (a word and the
prefixes of a year or a number, of another word), words no item has, search words (kind:),
each with several limits, kind and date filters and domains. Prints the number of requests and
every one whose answers differ (status or body); exits 1 if any differs.
"""
import http.client, re, subprocess, sys, urllib.parse

WORDS = ["report", "invoice", "holiday", "photo", "budget", "meeting", "notes", "draft", "final", "summary",
         "project", "design", "contract", "résumé", "letter", "plan", "review", "scan", "backup", "agenda",
         "quarterly", "annual", "client", "team", "travel", "recipe", "manual", "slides", "thesis", "canon",
         "Zürich", "café", "Müller", "отчёт", "会议", "xylophone"]


def queries():
    seen = set()
    def add(q):
        if q not in seen:
            seen.add(q)
            yield q
    for letter in "abcdefghijklmnopqrstuvwxyz0123456789éüо会":
        yield from add(letter)
    for word in WORDS:
        for length in range(2, len(word) + 1):
            yield from add(word[:length].lower())
    for word in ["zzz", "qx", "budgets", "reports", "2019", "2024", "20", "1", "99999", "12345"]:
        yield from add(word)
    for first, second in [("budget", "2024"), ("holiday", "photo"), ("meeting", "notes"), ("report", "2019"),
                          ("canon", "review"), ("résumé", "2"), ("x", "2"), ("r", "2"), ("quarterly", "report"),
                          ("team", "budget"), ("zürich", "café"), ("notes", "1")]:
        for length in range(1, len(second) + 1):
            yield from add(first + " " + second[:length])
    for three in ["plan budget 2", "report final 20", "canon r d", "holiday photo 2019", "a b c", "budget 2 pdf"]:
        yield from add(three)
    for search in ["kind:pdf report", "kind:image r", "budget kind:document", "kind:text 2"]:
        yield from add(search)


def paths():
    variants = ["limit=60", "limit=1", "limit=7", "limit=200", "limit=60&kind=pdf", "limit=60&kind=image,text",
                "limit=60&date=year", "limit=60&date=month", "limit=60&domain=bench", "limit=60&domain=none", ""]
    for q in queries():
        for variant in variants:
            yield "/api/search?" + (variant + "&" if variant else "") + "q=" + urllib.parse.quote(q)


def start(binary, index):
    process = subprocess.Popen([binary, "serve", "--index", index, "--host", "127.0.0.1", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if found:
            return process, http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=60)
    raise SystemExit(f"{binary} did not start")


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    servers = [start(sys.argv[1], sys.argv[3]), start(sys.argv[2], sys.argv[3])]
    count = differ = 0
    try:
        for path in paths():
            answers = []
            for _, connection in servers:
                connection.request("GET", path)
                response = connection.getresponse()
                answers.append((response.status, response.read()))
            count += 1
            if answers[0] != answers[1]:
                differ += 1
                print(f"differs: {path} ({answers[0][0]}, {len(answers[0][1])} bytes; {answers[1][0]}, {len(answers[1][1])} bytes)")
    finally:
        for process, _ in servers:
            process.kill()
    print(f"{count} requests, {differ} different")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
