#!/usr/bin/env python3
"""Words in every script, known items and typos: Searchlight against Recoll on the same folders.

Two corpora, both made from what a Debian machine holds (no download):

* multilingual: the translations of programs (`/usr/share/locale/LANG/LC_MESSAGES/*.mo`), a
  document per catalog, in about 25 languages and their scripts, plus copies in legacy
  encodings (ISO-8859-7, KOI8-R, CP1251, Shift_JIS, EUC-JP, GB18030, EUC-KR, TIS-620,
  ISO-8859-8, CP1256). Words are taken from each document (runs of letters, digits and marks;
  for scripts written without spaces, two to four letters of a run) and searched as written
  and without their nonspacing marks (NFD, category Mn left out). A hit: the document is among
  the results.
* known items: the plain-text files of `/usr/share/doc` (READMEs, NEWS, TODO…; no copyright
  files, whose licences repeat), a phrase of five words that occurs in exactly one of them,
  searched as words without quotes: hit@1, hit@5 and the mean reciprocal rank; then the same
  phrase with two neighbouring letters of its longest word swapped (a typo).

Usage: Benchmarks/words.py --searchlight BIN [--work DIR] [--no-recoll] [--items N] [--words N]
                          [--postgres URL]
With --postgres, Searchlight's indexes are the databases `multi` and `known` under URL (a
server of your own: postgres://USER@HOST:PORT), not SQLite files.
Prints a Markdown table. Needs recollcmd for the Recoll column.
"""
import argparse
import gettext
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import unicodedata

LANGUAGES = {  # language: (script, legacy encoding or None)
    "fr": ("Latin", None), "de": ("Latin", None), "pl": ("Latin", "iso8859-2"), "tr": ("Latin", None),
    "vi": ("Latin", None), "el": ("Greek", "iso8859-7"), "ru": ("Cyrillic", "koi8-r"),
    "uk": ("Cyrillic", "cp1251"), "ko": ("Hangul", "euc-kr"), "ja": ("Japanese", "shift_jis"),
    "zh_CN": ("Han", "gb18030"), "th": ("Thai", "tis-620"), "lo": ("Lao", None), "km": ("Khmer", None),
    "my": ("Myanmar", None), "hi": ("Devanagari", None), "bn": ("Bengali", None), "ta": ("Tamil", None),
    "ar": ("Arabic", "cp1256"), "he": ("Hebrew", "iso8859-8"), "ka": ("Georgian", None),
    "hy": ("Armenian", None), "am": ("Ethiopic", None), "si": ("Sinhala", None),
}
UNSPACED = {"Japanese", "Han", "Thai", "Lao", "Khmer", "Myanmar"}


def catalog_text(path):
    """The translated messages of a .mo catalog, cleaned of format codes and accelerators."""
    try:
        with open(path, "rb") as handle:
            catalog = gettext.GNUTranslations(handle)._catalog
    except Exception:
        return ""
    lines = []
    for key, value in catalog.items():
        if not key or not isinstance(value, str):
            continue
        value = re.sub(r"%[-+ #0-9.*]*[a-zA-Z]|\{[^}]*\}|[&_](?=\w)|\\[nt]", " ", value)
        lines.append(value)
    return "\n".join(lines)


def is_word_char(char):
    """Letters, marks, digits, and the joiners inside words (ZWJ in Sinhala conjuncts)."""
    return unicodedata.category(char)[0] in "LMN" or (unicodedata.category(char) == "Cf" and char != "\u200b")


def runs(text):
    run = ""
    for char in text:
        if is_word_char(char):
            run += char
        elif run:
            yield run
            run = ""
    if run:
        yield run


def sample_words(text, script, count, rng):
    """Words of a text to search for."""
    candidates = []
    for run in runs(text):
        letters = [c for c in run if unicodedata.category(c)[0] == "L"]
        if script in UNSPACED:
            # Letters of the script only (a Latin word left untranslated is no word of it).
            if len(letters) < 2 or any(ord(c) < 0x250 for c in letters):
                continue
            # Two to four letters from a run, starting on a letter, with the marks after them.
            starts = [i for i, c in enumerate(run) if unicodedata.category(c)[0] != "M"]
            start = rng.choice(starts)
            word, taken = "", 0
            for char in run[start:]:
                if unicodedata.category(char)[0] != "M":
                    if taken == rng.randint(2, 4):
                        break
                    taken += 1
                word += char
            if taken >= 2:
                candidates.append(word)
        elif len(letters) >= 3 and not any(c.isdigit() for c in run):
            candidates.append(run)
    rng.shuffle(candidates)
    return list(dict.fromkeys(candidates))[:count]


def without_marks(word):
    return unicodedata.normalize("NFC", "".join(
        c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn"))


class Searchlight:
    def __init__(self, binary, index):
        # Absolute: searches run from the folder scanned (``ranked``).
        absolute = lambda path: path if "://" in path else os.path.abspath(path)
        self.binary, self.index, self.folder = absolute(binary), absolute(index), None

    def scan(self, folder):
        self.folder = folder
        if "://" in self.index:
            # A database outlives the work folder: the folders of earlier runs would be found too
            # (the same documents under other roots). A database with no index yet says so: fine.
            subprocess.run([self.binary, "remove", "--all", "--index", self.index],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([self.binary, "scan", folder, "--index", self.index, "--no-thumbnails", "--no-ocr"],
                       check=True, stdout=subprocess.DEVNULL)

    def ranked(self, words, limit=200):
        # Paths relative to the folder scanned: run from it, with --relative (absolute otherwise).
        result = subprocess.run([self.binary, "search", "--limit", str(limit), "--index", self.index, "--relative",
                                 "--", *words], capture_output=True, cwd=self.folder)
        if result.returncode != 0:
            return None  # an error
        return [line for line in result.stdout.decode("utf-8", "surrogateescape").split("\n") if line]


class Recoll:
    def __init__(self, conf, folder):
        self.conf, self.folder = conf, folder
        os.makedirs(conf, exist_ok=True)
        with open(os.path.join(conf, "recoll.conf"), "w") as handle:
            handle.write(f"topdirs = {folder}\nloglevel = 1\nindexedmimetypes = text/plain\n")

    def scan(self, _folder):
        subprocess.run(["recollindex", "-c", self.conf], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def ranked(self, words, limit=200):
        result = subprocess.run(["recollq", "-c", self.conf, "-b", "-n", f"0-{limit}", " ".join(words)],
                                capture_output=True)
        if result.returncode != 0:
            return None
        prefix = "file://" + self.folder + "/"
        return [line[len(prefix):] for line in result.stdout.decode("utf-8", "surrogateescape").split("\n")
                if line.startswith(prefix)]


def build_multilingual(folder, rng):
    documents = {}  # relative path: (language, text as written)
    for language, (script, legacy) in LANGUAGES.items():
        catalogs = sorted(glob.glob(f"/usr/share/locale/{language}/LC_MESSAGES/*.mo"))
        rng.shuffle(catalogs)
        kept = 0
        for catalog in catalogs:
            text = catalog_text(catalog)
            if len(text) < 400:
                continue
            text = text[:20000]
            name = f"{language}-{os.path.basename(catalog)[:-3]}"
            with open(os.path.join(folder, name + ".txt"), "w", encoding="utf-8") as handle:
                handle.write(text)
            documents[name + ".txt"] = (language, text)
            if legacy and kept == 0:
                try:
                    data = text.encode(legacy)
                except UnicodeEncodeError:
                    data = None
                if data:
                    with open(os.path.join(folder, f"{name}-{legacy}.txt"), "wb") as handle:
                        handle.write(data)
                    documents[f"{name}-{legacy}.txt"] = (language, text)
            kept += 1
            if kept == 3:
                break
    return documents


def build_known_items(folder):
    documents = {}
    for path in sorted(glob.glob("/usr/share/doc/**/*", recursive=True)):
        base = os.path.basename(path).lower()
        if not os.path.isfile(path) or os.path.islink(path) or "copyright" in base or "." in base[1:] and not base.endswith((".txt", ".md")):
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except (UnicodeDecodeError, OSError):
            continue
        if not 500 <= len(text) <= 60000:
            continue
        name = path[len("/usr/share/doc/"):].replace("/", "__")
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)
        documents[name] = text
    return documents


def known_item_queries(documents, count, rng):
    names = sorted(documents)
    lowered = {name: " ".join(re.findall(r"[a-z0-9]+", documents[name].lower())) for name in names}
    queries = []
    for name in rng.sample(names, len(names)):
        words = [w for w in re.findall(r"[A-Za-z]+", documents[name])]
        if len(words) < 40:
            continue
        start = rng.randrange(0, len(words) - 5)
        phrase = words[start:start + 5]
        if sum(len(w) >= 4 for w in phrase) < 3:
            continue
        needle = " ".join(w.lower() for w in phrase)
        if sum(needle in text for text in lowered.values()) != 1:
            continue
        longest = max(range(5), key=lambda i: len(phrase[i]))
        word = phrase[longest]
        middle = len(word) // 2
        typo = word[:middle - 1] + word[middle] + word[middle - 1] + word[middle + 1:]
        typoed = phrase[:longest] + [typo] + phrase[longest + 1:]
        queries.append((name, phrase, typoed if typo.lower() != word.lower() else None))
        if len(queries) == count:
            break
    return queries


def rank_stats(ranks):
    total = len(ranks)
    if total == 0:
        return (0, 0, 0)
    return (sum(r == 1 for r in ranks) / total, sum(r is not None and r <= 5 for r in ranks) / total,
            sum(1 / r for r in ranks if r) / total)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--searchlight", required=True)
    parser.add_argument("--work", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "work", "words"))
    parser.add_argument("--no-recoll", action="store_true")
    parser.add_argument("--items", type=int, default=200, help="known-item queries")
    parser.add_argument("--words", type=int, default=12, help="words per multilingual document")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--postgres", help="index on PostgreSQL: databases multi and known under this URL")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    shutil.rmtree(arguments.work, ignore_errors=True)
    multi, known = os.path.join(arguments.work, "multilingual"), os.path.join(arguments.work, "known")
    os.makedirs(multi)
    os.makedirs(known)
    documents = build_multilingual(multi, rng)
    items = build_known_items(known)
    def index(name):
        if arguments.postgres:
            return arguments.postgres.rstrip("/") + "/" + ("multi" if name == "multilingual" else name)
        return os.path.join(arguments.work, name + ".sqlite")
    tools = {"searchlight": lambda name: Searchlight(arguments.searchlight, index(name))}
    if not arguments.no_recoll and shutil.which("recollindex"):
        tools["recoll"] = lambda name: Recoll(os.path.join(arguments.work, "recoll-" + name), os.path.join(arguments.work, name))

    # Words in every script.
    per_script = {}  # (tool, script): [as written hits, total, without-marks hits, total, errors]
    queries = []
    for name, (language, text) in sorted(documents.items()):
        script = LANGUAGES[language][0]
        for word in sample_words(text, script, arguments.words, rng):
            queries.append((name, script, word))
    for tool_name, make in tools.items():
        tool = make("multilingual")
        tool.scan(multi)
        for name, script, word in queries:
            row = per_script.setdefault((tool_name, script), [0, 0, 0, 0, 0])
            for offset, typed in ((0, word), (2, without_marks(word))):
                found = tool.ranked([typed])
                if found is None:
                    row[4] += 1
                row[offset] += int(bool(found) and name in found)
                row[offset + 1] += 1

    # Known items and typos.
    known_queries = known_item_queries(items, arguments.items, rng)
    known_ranks = {}
    for tool_name, make in tools.items():
        tool = make("known")
        tool.scan(known)
        exact, typos = [], []
        for name, phrase, typoed in known_queries:
            found = tool.ranked(phrase, limit=50) or []
            exact.append(found.index(name) + 1 if name in found else None)
            if typoed:
                found = tool.ranked(typoed, limit=50) or []
                typos.append(found.index(name) + 1 if name in found else None)
        known_ranks[tool_name] = (exact, typos)

    print(f"{len(documents)} multilingual documents, {len(queries)} words; {len(items)} known-item documents, "
          f"{len(known_queries)} phrases")
    print()
    print("| script | " + " | ".join(f"{t} as written | {t} without marks" for t in tools)
          + " | errors (" + " / ".join(tools) + ") |")
    print("|---|" + "---|---|" * len(tools) + "---|")
    for script in dict.fromkeys(s for _, s, _ in queries):
        cells = []
        errors = []
        for tool_name in tools:
            hits, total, bare, bare_total, failed = per_script.get((tool_name, script), [0, 0, 0, 0, 0])
            cells.append(f"{hits}/{total} ({hits / max(total, 1):.0%}) | {bare}/{bare_total} ({bare / max(bare_total, 1):.0%})")
            errors.append(str(failed))
        print(f"| {script} | " + " | ".join(cells) + " | " + " / ".join(errors) + " |")
    print()
    print("| known items | " + " | ".join(tools) + " |")
    print("|---|" + "---|" * len(tools))
    for label, index in (("phrase", 0), ("phrase with a typo", 1)):
        stats = {tool: rank_stats(known_ranks[tool][index]) for tool in tools}
        for measure, position in (("hit@1", 0), ("hit@5", 1), ("MRR", 2)):
            print(f"| {label}: {measure} | " + " | ".join(f"{stats[t][position]:.2f}" for t in tools) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
