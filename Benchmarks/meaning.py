#!/usr/bin/env python3
"""Search by meaning (issue 49): questions in plain words against ~550 manual pages.

The corpus: the answer pages and a fixed sample of the other pages of `/usr/share/man/man1`
(550 in all), copied as they are (compressed roff, which Searchlight's roff reader indexes as
the text the pages print). The questions are written as a person would ask them, in English,
German, French, Spanish, Russian and Greek, in words that differ from the pages' (the page's
own name is never in its question). Each is searched three ways through the built binary:
`--words` (the words' ranking alone: BM25 within the word tiers), the default (the blend, or
words alone where meaning does not join) and `--meaning`; a hit is the expected page (or one
of its accepted alternatives) in the first 1 or 5 results; MRR over the first 10.

Then `meaning-bench` (pinned to one core): query p50/p95 with the question embedded, at
10 k / 100 k / 1 M synthetic chunks, bytes per chunk, chunks embedded per second; and the
first scan of the corpus with and without the pass.

Usage: Benchmarks/meaning.py --searchlight BIN --model DIR [--bench BIN] [--work DIR] [--pages N]
Prints Markdown tables.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import time

# (question, language, accepted pages)
QUESTIONS = [
    ("how much room is left on my drives", "en", ["df"]),
    ("give a file a new name", "en", ["mv", "rename"]),
    ("create a new folder", "en", ["mkdir"]),
    ("which programs are using the processor right now", "en", ["top", "ps"]),
    ("count the lines in a document", "en", ["wc"]),
    ("follow the end of a log file as it grows", "en", ["tail"]),
    ("shrink a file so that it takes less space", "en", ["gzip", "zip", "bzip2", "xz"]),
    ("pack many files together into one bundle", "en", ["tar", "zip", "ar", "cpio"]),
    ("end a program that does not respond", "en", ["kill", "killall", "pkill"]),
    ("change who owns a file", "en", ["chown"]),
    ("allow a script to be run", "en", ["chmod"]),
    ("how big is this folder with everything in it", "en", ["du"]),
    ("what day and time is it", "en", ["date"]),
    ("look for a phrase inside many files", "en", ["grep"]),
    ("wait a few seconds before going on", "en", ["sleep"]),
    ("log in to another computer over the network safely", "en", ["ssh"]),
    ("fetch a web page from the internet", "en", ["wget", "curl"]),
    ("how long since the computer was switched on", "en", ["uptime"]),
    ("how much memory is used and free", "en", ["free"]),
    ("show what differs between two versions of a text", "en", ["diff", "cmp"]),
    ("wie viel Platz ist noch auf der Festplatte frei", "de", ["df"]),
    ("wie benenne ich eine Datei um", "de", ["mv", "rename"]),
    ("einen neuen Ordner anlegen", "de", ["mkdir"]),
    ("ein hängendes Programm beenden", "de", ["kill", "killall", "pkill"]),
    ("die Zeilen einer Datei zählen", "de", ["wc"]),
    ("comment renommer un fichier", "fr", ["mv", "rename"]),
    ("créer un nouveau répertoire vide", "fr", ["mkdir"]),
    ("combien d'espace reste-t-il sur le disque", "fr", ["df"]),
    ("chercher un mot dans plusieurs fichiers", "fr", ["grep"]),
    ("télécharger une page web", "fr", ["wget", "curl"]),
    ("cambiar el propietario de un archivo", "es", ["chown"]),
    ("comprimir un archivo para que ocupe menos", "es", ["gzip", "zip", "bzip2", "xz"]),
    ("cuánto tiempo lleva encendido el ordenador", "es", ["uptime"]),
    ("ver las últimas líneas de un registro", "es", ["tail"]),
    ("esperar unos segundos en un guion", "es", ["sleep"]),
    ("сколько свободного места на диске", "ru", ["df"]),
    ("как переименовать файл", "ru", ["mv", "rename"]),
    ("создать новую папку", "ru", ["mkdir"]),
    ("сколько оперативной памяти занято", "ru", ["free"]),
    ("сравнить два текстовых файла", "ru", ["diff", "cmp"]),
    ("πόσος χώρος απομένει στον δίσκο", "el", ["df"]),
    ("δημιουργία νέου φακέλου", "el", ["mkdir"]),
    ("πώς αλλάζω το όνομα ενός αρχείου", "el", ["mv", "rename"]),
    ("τερματισμός προγράμματος που κόλλησε", "el", ["kill", "killall", "pkill"]),
    ("ασφαλής σύνδεση σε άλλον υπολογιστή", "el", ["ssh"]),
]

MAN = "/usr/share/man/man1"


def page_name(file_name):
    """`df.1.gz` → `df`."""
    return re.sub(r"\.[0-9][a-z0-9]*(\.gz)?$", "", file_name)


def make_corpus(folder, pages):
    answers = {page for _, _, accepted in QUESTIONS for page in accepted}
    files = sorted(os.listdir(MAN))
    chosen = [f for f in files if page_name(f) in answers and f.endswith(".1.gz")]
    others = [f for f in files if page_name(f) not in answers and f.endswith(".gz")]
    random.Random(49).shuffle(others)
    chosen += others[: max(0, pages - len(chosen))]
    os.makedirs(folder, exist_ok=True)
    for name in chosen:
        shutil.copy(os.path.join(MAN, name), os.path.join(folder, name))
    return chosen


def run(arguments, environment):
    return subprocess.run(arguments, capture_output=True, text=True, env=environment)


def ranked_pages(binary, question, mode, environment):
    arguments = [binary, "search", *question.split(), "--limit", "10"]
    if mode:
        arguments.append(mode)
    result = run(arguments, environment)
    return [page_name(os.path.basename(line)) for line in result.stdout.splitlines() if line.strip()]


def quality(binary, environment):
    rows = []
    for mode, label in [("--words", "words alone (BM25)"), (None, "hybrid (default)"), ("--meaning", "meaning alone")]:
        for group, languages in [("English", {"en"}), ("other languages", {"de", "fr", "es", "ru", "el"})]:
            asked = [q for q in QUESTIONS if q[1] in languages]
            hit1 = hit5 = 0
            reciprocal = 0.0
            misses = []
            for question, _, accepted in asked:
                pages = ranked_pages(binary, question, mode, environment)
                rank = next((i + 1 for i, page in enumerate(pages) if page in accepted), None)
                hit1 += rank == 1
                hit5 += rank is not None and rank <= 5
                reciprocal += 1 / rank if rank else 0
                if not rank or rank > 5:
                    misses.append(question)
            rows.append((label, group, len(asked), hit1, hit5, reciprocal / len(asked), misses))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--searchlight", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--bench")
    parser.add_argument("--work", default="Benchmarks/work/meaning")
    parser.add_argument("--pages", type=int, default=550)
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    corpus = os.path.join(work, "man1")
    pages = make_corpus(corpus, args.pages)
    base = dict(os.environ, XDG_CONFIG_HOME=work + "/config", XDG_STATE_HOME=work + "/state",
                SEARCHLIGHT_MODEL_DIR=os.path.abspath(args.model))
    base.pop("SEARCHLIGHT_CONFIG", None)
    os.makedirs(work + "/config/searchlight", exist_ok=True)

    # The first scan without the pass, then with it (the pass's own line says chunks per second).
    off = dict(base, SEARCHLIGHT_INDEX=work + "/words.sqlite")
    with open(work + "/off.toml", "w") as handle:
        handle.write("[meaning]\nenabled = false\n")
    start = time.monotonic()
    result = run([args.searchlight, "scan", corpus, "--config", work + "/off.toml", "--no-thumbnails"], off)
    without = time.monotonic() - start
    environment = dict(base, SEARCHLIGHT_INDEX=work + "/index.sqlite")
    start = time.monotonic()
    result = run([args.searchlight, "scan", corpus, "--no-thumbnails"], environment)
    with_pass = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(result.stderr)
    meaning_line = next((line for line in result.stdout.splitlines() if line.startswith("meaning:")), "")
    status = run([args.searchlight, "status"], environment).stdout
    print(f"corpus: {len(pages)} pages of {MAN}; {len(QUESTIONS)} questions")
    print(f"first scan without the pass: {without:.1f} s; with it: {with_pass:.1f} s ({meaning_line})")
    print("".join(line + "\n" for line in status.splitlines() if "meaning" in line or "embedded" in line))

    print("| ranking | questions | n | hit@1 | hit@5 | MRR |")
    print("|---|---|---|---|---|---|")
    missed = []
    for label, group, count, hit1, hit5, mrr, misses in quality(args.searchlight, environment):
        print(f"| {label} | {group} | {count} | {hit1}/{count} | {hit5}/{count} | {mrr:.2f} |")
        missed.append((label, group, misses))
    for label, group, misses in missed:
        if misses:
            print(f"\nnot in the first five, {label}, {group}: " + "; ".join(misses))

    if args.bench:
        print("\n| meaning-bench (taskset -c 0) | | |")
        print("|---|---|---|")
        bench = subprocess.run(["taskset", "-c", "0", args.bench, "--model", args.model, "--work", work],
                               capture_output=True, text=True)
        print(bench.stdout + bench.stderr, end="")


if __name__ == "__main__":
    main()
