#!/usr/bin/env python3
"""Measures the two layouts a content index can have on Debian's SQLite 3.40 (no
`contentless_delete`), on generated documents (make_tree.paragraphs: Zipf-distributed words,
a few KB each):

- external: the text stored once in a table, an FTS5 table with `content=` pointing at it;
- contentless: an FTS5 table with `content=''` plus the text stored zlib-compressed apart (a
  contentless table can still be deleted from with the 'delete' command given the original
  text, which the stored copy provides);
- contentless with `detail=column`: no word positions (a phrase is then its words' AND in the
  index, checked on the stored text).

    content_storage.py [--documents 20000] [--out Benchmarks/work/content-storage]

Prints bytes per document for each layout (and for the text alone), and the time to list the
row ids of a common, a middling and a rare word, of a prefix and of a phrase. Only Python's
sqlite3 (the system's SQLite) and zlib are used, so the figures are SQLite's and zlib's.
"""

import argparse
import os
import random
import sqlite3
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_tree  # noqa: E402

TOKENIZE = "tokenize='unicode61 remove_diacritics 2'"
LAYOUTS = {
    "external": f"""
        CREATE TABLE doc(id INTEGER PRIMARY KEY, authors TEXT, text TEXT);
        CREATE VIRTUAL TABLE doc_fts USING fts5(authors, text, content='doc', content_rowid='id',
            columnsize=0, {TOKENIZE}{{prefix}});
        """,
    "contentless": f"""
        CREATE TABLE doc(id INTEGER PRIMARY KEY, authors TEXT, text BLOB);
        CREATE VIRTUAL TABLE doc_fts USING fts5(authors, text, content='', columnsize=0, {TOKENIZE}{{prefix}});
        """,
    "contentless, detail=column": f"""
        CREATE TABLE doc(id INTEGER PRIMARY KEY, authors TEXT, text BLOB);
        CREATE VIRTUAL TABLE doc_fts USING fts5(authors, text, content='', columnsize=0, detail=column,
            {TOKENIZE}{{prefix}});
        """,
}


def build(path, layout, prefix, texts):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(LAYOUTS[layout].format(prefix=", prefix='2 3'" if prefix else ""))
    started = time.perf_counter()
    with db:
        for rowid, text in enumerate(texts, 1):
            stored = zlib.compress(text.encode(), 6) if layout.startswith("contentless") else text
            db.execute("INSERT INTO doc VALUES (?, ?, ?)", (rowid, "", stored))
            db.execute("INSERT INTO doc_fts(rowid, authors, text) VALUES (?, ?, ?)", (rowid, "", text))
    db.execute("INSERT INTO doc_fts(doc_fts) VALUES ('optimize')")
    db.commit()
    db.execute("VACUUM")
    seconds = time.perf_counter() - started
    db.close()
    return os.path.getsize(path), seconds


def timed(db, query, runs=20):
    times = []
    count = 0
    for _ in range(runs):
        started = time.perf_counter()
        count = len(db.execute("SELECT rowid FROM doc_fts WHERE doc_fts MATCH ?", (query,)).fetchall())
        times.append(time.perf_counter() - started)
    times.sort()
    return count, times[len(times) // 2] * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=20_000)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "work", "content-storage"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(42)
    texts = [make_tree.paragraphs(rng) for _ in range(args.documents)]
    text_bytes = sum(len(t.encode()) for t in texts)
    compressed = sum(len(zlib.compress(t.encode(), 6)) for t in texts)
    n = args.documents
    print(f"{n} documents, {text_bytes / n:.0f} bytes of text each on average; zlib -6: {compressed / n:.0f} bytes")
    vocabulary = make_tree.TEXT_VOCABULARY
    queries = [("common word", '"the"'), ("middling word", f'"{vocabulary[150]}"'),
               ("rare word", f'"{vocabulary[15000]}"'), ("prefix (3 letters)", '"rep"*'),
               ("prefix (5 letters)", '"repor"*'), ("phrase", f'"{vocabulary[40]} {vocabulary[0]}"')]
    print("\n| layout | bytes per document | × text | build s | " + " | ".join(q for q, _ in queries) + " |")
    print("|---|---|---|---|" + "---|" * len(queries))
    for layout in LAYOUTS:
        for prefix in (False, True):
            path = os.path.join(args.out, f"{layout.replace(', ', '-')}{'-prefix' if prefix else ''}.sqlite")
            size, seconds = build(path, layout, prefix, texts)
            db = sqlite3.connect(path)
            cells = []
            for _, query in queries:
                if "detail=column" in layout and " " in query:
                    # No positions: a phrase is its words' AND, checked on the text after.
                    query = " AND ".join(f'"{word}"' for word in query.strip('"').split())
                count, ms = timed(db, query)
                cells.append(f"{count} rows, {ms:.2f} ms")
            db.close()
            name = layout + (", prefix='2 3'" if prefix else "")
            print(f"| {name} | {size / n:.0f} | {size / text_bytes:.2f} | {seconds:.1f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
