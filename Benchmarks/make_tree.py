#!/usr/bin/env python3
"""Generates a reproducible tree of mixed files for the Searchlight benchmark.

    make_tree.py --files 50000 --seed 42 OUT

The same seed and file count give the same names, contents and modification times. Folders hold
about ten files each and nest up to six levels. Names look like a person's documents: words,
camelCase, digits and dates, diacritics and a few non-Latin scripts. Contents match the
extension: text (a few KB each of Zipf-distributed words, see `paragraphs`), Markdown with a heading, HTML with a title, JSON, CSV, source code, random
binaries, and copies of the real images, PDFs and zip of Examples/Documents, so that libmagic
does the same work it does on real files.
"""

import argparse
import os
import random
import shutil
import sys

GENERATOR_VERSION = 2  # bump when the output for a given seed changes

WORDS = """report quarterly annual budget invoice receipt contract letter notes meeting minutes
agenda summary draft final review plan project proposal presentation slides chapter thesis
paper article recipe holiday travel itinerary photo scan backup archive export import config
settings data results analysis chart figure table index list todo ideas journal diary log
sketch design logo banner poster flyer menu ticket booking passport insurance tax salary
payslip statement bank mortgage lease garden kitchen renovation wedding birthday party family
school homework exam course lecture syllabus training manual guide readme changelog license
release build test benchmark profile sample template form application letterhead portfolio
resume cover interview offer schedule calendar timeline roadmap strategy marketing sales
customer client partner vendor supplier order shipment inventory catalog price quote estimate
""".split()

ACCENTED = """Résumé Müller Zoë façade naïve Crème brûlée São Paulo Ångström Łódź Straße Dvořák
Señor piñata Gödel Øresund Škoda café Genève Zürich Málaga Kraków Bjørn Ærø Čapek Åsa Jürgen
""".split()

SCRIPTS = """Отчёт Документы Письмо Фотографии 会议记录 项目计划 写真 メモ 報告書 Ωmega Παραλία
Σημειώσεις ملاحظات تقرير समाचार 보고서 ภาพถ่าย Αρχείο""".split()

FOLDER_WORDS = """Projects Photos Documents Archive Work Personal Finance Taxes Travel Music Books
Recipes School Clients Invoices Scans Screenshots Downloads Backups Drafts Templates Notes
Reports Meetings Family Garden House Car Health Insurance Contracts Designs Assets Exports
""".split()

RARE = "xylophone"  # appears in about one name in two thousand: a selective search word

# extension, weight, kind
TYPES = [
    ("txt", 16, "text"), ("md", 9, "markdown"), ("html", 7, "html"), ("json", 6, "json"),
    ("csv", 6, "csv"), ("swift", 3, "code"), ("py", 3, "code"), ("c", 2, "code"),
    ("log", 3, "text"), ("", 2, "text"),
    ("png", 9, "png"), ("jpg", 10, "jpg"), ("webp", 2, "webp"), ("gif", 1, "gif"),
    ("svg", 2, "svg"), ("pdf", 7, "pdf"), ("zip", 2, "zip"),
    ("bin", 4, "binary"), ("dat", 3, "binary"), ("db", 1, "binary"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="the folder to create (must not exist)")
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--per-folder", type=int, default=10)
    parser.add_argument("--samples", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                          "..", "Examples", "Documents"),
                        help="folder of real sample files to copy (default: Examples/Documents)")
    args = parser.parse_args()

    if os.path.exists(args.out):
        sys.exit(f"make_tree: {args.out} already exists")
    samples = load_samples(args.samples)
    rng = random.Random(args.seed)
    blobs = [rng.randbytes(rng.choice([512, 2048, 4096, 8192])) for _ in range(64)]

    os.makedirs(args.out)
    folders = make_folders(rng, args.out, max(1, args.files // args.per_folder))
    kinds = [kind for _, weight, kind in TYPES for _ in range(weight)]
    extensions = {kind: [ext for ext, weight, k in TYPES if k == kind for _ in range(weight)] for _, _, kind in TYPES}
    start = 1_420_070_400  # 2015-01-01
    span = 10 * 365 * 86_400
    used = set()
    for number in range(args.files):
        folder = folders[number % len(folders)]
        kind = rng.choice(kinds)
        ext = rng.choice(extensions[kind])
        name = file_name(rng, kind, ext)
        while (folder, name) in used:
            stem, dot, suffix = name.rpartition(".")
            name = f"{stem} ({rng.randint(2, 99)}).{suffix}" if dot else f"{name} {rng.randint(2, 99)}"
        used.add((folder, name))
        path = os.path.join(folder, name)
        write_content(rng, path, kind, name, blobs, samples)
        mtime = start + rng.randrange(span)
        os.utime(path, (mtime, mtime))
    print(f"make_tree: {args.files} files in {len(folders)} folders under {args.out}", file=sys.stderr)


def load_samples(folder):
    """Real files to copy, by kind: images, PDFs, a zip, from the committed sample folder."""
    by_kind = {"png": [], "jpg": [], "webp": [], "gif": [], "svg": [], "pdf": [], "zip": []}
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            ext = name.rsplit(".", 1)[-1].lower()
            if ext in by_kind:
                by_kind[ext].append(os.path.join(directory, name))
    missing = [kind for kind, paths in by_kind.items() if not paths]
    if missing:
        sys.exit(f"make_tree: no sample {', '.join(missing)} files in {folder}")
    for paths in by_kind.values():
        paths.sort()
    return by_kind


def make_folders(rng, root, count):
    """`count` folders (the root included), each new one placed under a recent or shallow one."""
    folders = [(root, 0)]
    children = {root: set()}
    while len(folders) < count:
        # Mostly under one of the last few folders (trees grow in bursts), sometimes anywhere.
        if rng.random() < 0.7:
            parent, depth = folders[max(0, len(folders) - 8) + rng.randrange(min(8, len(folders)))]
        else:
            parent, depth = rng.choice(folders)
        if depth >= 6:
            parent, depth = root, 0
        name = folder_name(rng)
        while name in children[parent]:
            name = f"{name} {rng.randint(2, 9)}"
        children[parent].add(name)
        path = os.path.join(parent, name)
        os.mkdir(path)
        children[path] = set()
        folders.append((path, depth + 1))
    return [path for path, _ in folders]


def folder_name(rng):
    r = rng.random()
    if r < 0.45:
        return rng.choice(FOLDER_WORDS)
    if r < 0.65:
        return f"{rng.choice(FOLDER_WORDS)} {rng.randint(2008, 2025)}"
    if r < 0.8:
        return f"{rng.choice(WORDS)}-{rng.choice(WORDS)}"
    if r < 0.9:
        return rng.choice(ACCENTED + SCRIPTS)
    return f"{rng.randint(2010, 2025)}-{rng.randint(1, 12):02d} {rng.choice(WORDS).title()}"


def file_name(rng, kind, ext):
    """A realistic name: 5 to 60 characters, most between 12 and 35."""
    w = lambda: rng.choice(WORDS)
    r = rng.random()
    if kind in ("jpg", "png") and r < 0.35:
        stem = (f"IMG_{rng.randint(2012, 2025)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}_"
                f"{rng.randint(0, 23):02d}{rng.randint(0, 59):02d}{rng.randint(0, 59):02d}") if kind == "jpg" else \
               f"Screenshot {rng.randint(2018, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} at {rng.randint(0, 23)}.{rng.randint(0, 59):02d}.{rng.randint(0, 59):02d}"
    elif r < 0.30:
        stem = f"{w().title()} {w().title()} {rng.randint(2010, 2025)}"
    elif r < 0.50:
        stem = w() + "".join(x.title() for x in (w() for _ in range(rng.randint(1, 2)))) + f"_v{rng.randint(1, 12)}"
    elif r < 0.65:
        stem = f"{w()}_{w()}-{rng.randint(1, 999)}"
    elif r < 0.75:
        stem = f"{rng.choice(ACCENTED)} {w()}"
    elif r < 0.83:
        stem = f"{rng.choice(SCRIPTS)} {rng.randint(1, 99)}"
    elif r < 0.93:
        stem = f"{w()} {w()} {w()}"
    else:
        stem = f"{w().upper()}{rng.randint(1, 9999)}"
    if rng.random() < 0.0005:
        stem = f"{RARE} {stem}"
    if not ext:
        return rng.choice(["Makefile", "LICENSE", "NOTES", "TODO", "Dockerfile", "README"]) + (
            "" if rng.random() < 0.5 else f"-{w()}")
    return f"{stem}.{ext}"


# The words of documents' text: English function words first (the most frequent), then the
# name words, then pseudo-words made of syllables for the long tail. Word k (from 1) is drawn
# with probability proportional to 1 / k^1.07 (Zipf's law), as in real text.
FUNCTION_WORDS = """the of and to a in is that for it as was with be by on not he this are or his
from at which but have an they you were her she there been one all we their has would when if so
no will more can who its out up about them into than other some what only time could these also
""".split()
SYLLABLES = "ka lo mi ne ra tu se vo pa di fe gu ha ji ko lu ma ni po qu ri sa te vi wa xe yo zu".split()


def text_vocabulary(size=20_000):
    words = list(dict.fromkeys(FUNCTION_WORDS + WORDS + [w.lower() for w in ACCENTED]))
    vocabulary_rng = random.Random(7)
    seen = set(words)
    while len(words) < size:
        word = "".join(vocabulary_rng.choice(SYLLABLES) for _ in range(vocabulary_rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


TEXT_VOCABULARY = text_vocabulary()
ZIPF_WEIGHTS = [1 / (k ** 1.07) for k in range(1, len(TEXT_VOCABULARY) + 1)]
CUMULATIVE_WEIGHTS = list(__import__("itertools").accumulate(ZIPF_WEIGHTS))


def paragraphs(rng, words=None):
    """A document's text: a few KB of Zipf-distributed words in sentences and paragraphs."""
    count = words or rng.randint(300, 900)
    drawn = rng.choices(TEXT_VOCABULARY, cum_weights=CUMULATIVE_WEIGHTS, k=count)
    out, position = [], 0
    while position < count:
        paragraph = []
        for _ in range(rng.randint(2, 6)):
            length = rng.randint(8, 25)
            sentence = " ".join(drawn[position:position + length])
            position += length
            if sentence:
                paragraph.append(sentence[0].upper() + sentence[1:] + ".")
        out.append(" ".join(paragraph))
    return "\n\n".join(out)


def write_content(rng, path, kind, name, blobs, samples):
    if kind in samples:
        shutil.copyfile(rng.choice(samples[kind]), path)
        return
    # Each document its own text, so that a content index is as large as on real documents.
    text = paragraphs(rng) if kind in ("text", "markdown", "html") else ""
    title = name.rsplit(".", 1)[0]
    if kind == "markdown":
        data = f"# {title}\n\n{text}\n"
    elif kind == "html":
        data = f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body><p>{text}</p></body></html>\n"
    elif kind == "json":
        data = '{"name": "%s", "items": [%s]}\n' % (title.replace('"', ""), ", ".join(
            '{"id": %d, "label": "%s"}' % (i, rng.choice(WORDS)) for i in range(rng.randint(1, 60))))
    elif kind == "csv":
        data = "date,item,amount\n" + "".join(
            f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d},{rng.choice(WORDS)},{rng.randint(1, 9999) / 100}\n"
            for _ in range(rng.randint(2, 200)))
    elif kind == "code":
        data = "// %s\n" % title + "".join(f"func {rng.choice(WORDS)}{i}() {{ print(\"{rng.choice(WORDS)}\") }}\n"
                                            for i in range(rng.randint(3, 80)))
    elif kind == "binary":
        with open(path, "wb") as f:
            f.write(rng.choice(blobs))
        return
    else:
        data = text + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(data)


if __name__ == "__main__":
    main()
