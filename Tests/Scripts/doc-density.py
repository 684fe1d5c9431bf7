#!/usr/bin/python3
"""Measures how densely the public API is documented: in every Swift file under a Sources/
folder that declares public API (a public or open type, protocol or extension, or a public
member of an extension), the share of its non-blank
lines that are doc comment lines (`///` lines and the lines of `/** ... */` blocks). Prints the
ratio over all those files, per target (the first folder under Sources/), and the least
documented files with a public API, fewest doc lines per line first.

    /usr/bin/python3 Tests/Scripts/doc-density.py [ROOT] [--least N] [--files PATH...]

ROOT is a package's folder (the current one by default). `--least N` lists N files (30 by
default). `--files` measures only the named files (paths relative to ROOT), as one group.
`--main` measures, per type, the files of the library's main public types (``MAIN_TYPES``: the
file named after the type and its `Type+Concern.swift` extensions).
`--grdb` measures GRDB 7.10.0's GRDB/ folder the same way, read from the local git copy at
/opt/swift-packages/groue/GRDB.swift.git (STYLE.md's reference for density), nothing checked out.

Comment lines that are not doc comments (`//`, `/* */`) count as ordinary lines, as does a line
with code before a trailing `///`. All the lines of such a file count, its internal helpers too, as
GRDB's are counted: what is measured is how documented the files a library's user reads are."""
import os, re, signal, subprocess, sys

# Piped into `head`, end quietly.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)

# A declaration with `public` or `open` among its modifiers: a type, protocol or extension, or a
# member of an extension whose own line says `public` (`extension Index { public func ... }`).
PUBLIC = re.compile(r"^\s*(?:@[\w.()\", ]+\s+)*(?:\w+\s+)*(?:public|open)(?:\(set\))?\s+(?:\w+\s+)*"
                    r"(?:class|struct|enum|protocol|extension|actor|func|var|let|init|subscript|typealias|"
                    r"case|static|convenience|required|mutating|nonmutating|override|final|indirect|"
                    r"nonisolated|async)\b")


# The types a user of the libraries meets first (issue 53, item 7), by target.
MAIN_TYPES = {
    "Searchlight": ["SearchableIndex", "SearchableItem", "AttributeSet", "SearchQuery", "IndexReader",
                    "IndexWriter", "QueryParser", "QueryExpression", "ContentSearch"],
    "SearchlightFiles": ["FolderScanner", "FolderWatcher", "IndexingPipeline", "ChangeSet", "DirectoryWalker",
                         "RootFolder", "FileIndexReader", "FileIndexWriter"],
    "SearchlightServer": ["SearchServer"],
    "SearchlightPostgres": ["PostgresIndex", "PostgresStore"],
}


def measure(text):
    """(doc lines, non-blank lines, declares a public type) of one Swift source."""
    doc = nonblank = 0
    in_doc_block = in_block = False
    public = False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        nonblank += 1
        if in_doc_block:
            doc += 1
            if "*/" in stripped:
                in_doc_block = False
            continue
        if in_block:
            if "*/" in stripped:
                in_block = False
            continue
        if stripped.startswith("///"):
            doc += 1
            continue
        if stripped.startswith("/**") and not stripped.startswith("/**/"):
            doc += 1
            in_doc_block = "*/" not in stripped[3:]
            continue
        if stripped.startswith("/*"):
            in_block = "*/" not in stripped[2:]
            continue
        if PUBLIC.match(line):
            public = True
    return doc, nonblank, public


def ratio(doc, lines):
    return f"{100.0 * doc / lines:5.1f} %" if lines else "   -  "


def report(files, least):
    """files: (name, target, text). Prints the totals, per target, and the least documented."""
    measured = []
    for name, target, text in files:
        doc, lines, public = measure(text)
        if public:
            measured.append((name, target, doc, lines))
    total_doc = sum(m[2] for m in measured)
    total_lines = sum(m[3] for m in measured)
    print(f"files with a public API: {len(measured)}, doc lines {total_doc} of {total_lines} "
          f"non-blank: {ratio(total_doc, total_lines)}")
    targets = {}
    for _, target, doc, lines in measured:
        t = targets.setdefault(target, [0, 0, 0])
        t[0] += doc; t[1] += lines; t[2] += 1
    print("\nper target:")
    for target, (doc, lines, count) in sorted(targets.items(), key=lambda kv: -kv[1][1]):
        print(f"  {ratio(doc, lines)}  {doc:6d} / {lines:6d}  {count:4d} files  {target}")
    if least:
        print(f"\nthe {least} least documented files with a public API:")
        for name, _, doc, lines in sorted(measured, key=lambda m: (m[2] / m[3] if m[3] else 1, -m[3]))[:least]:
            print(f"  {ratio(doc, lines)}  {doc:5d} / {lines:5d}  {name}")


def package_files(root, only=None):
    sources = os.path.join(root, "Sources")
    if only:
        for path in only:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                yield path, "(named files)", f.read()
        return
    for folder, _, names in sorted(os.walk(sources)):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, root)
                target = os.path.relpath(path, sources).split(os.sep)[0]
                with open(path, encoding="utf-8") as f:
                    yield relative, target, f.read()


def grdb_files(git_dir="/opt/swift-packages/groue/GRDB.swift.git", tag="7.10.0"):
    listing = subprocess.run(["git", "-C", git_dir, "ls-tree", "-r", "--name-only", tag, "GRDB"],
                             capture_output=True, text=True, check=True).stdout.split()
    for path in listing:
        if path.endswith(".swift"):
            text = subprocess.run(["git", "-C", git_dir, "show", f"{tag}:{path}"],
                                  capture_output=True, text=True, check=True).stdout
            yield path, "GRDB/" + path.split("/")[1] if path.count("/") > 1 else "GRDB", text


def report_main(root):
    """The density of each main type's files, and of all of them together."""
    total_doc = total_lines = 0
    for target, types in MAIN_TYPES.items():
        folder = os.path.join(root, "Sources", target)
        for type_name in types:
            doc = lines = files = 0
            for path, _, _ in ((p, None, None) for p in sorted(_swift_files(folder))):
                base = os.path.basename(path)[:-len(".swift")]
                if base == type_name or base.startswith(type_name + "+"):
                    with open(path, encoding="utf-8") as f:
                        d, n, _ = measure(f.read())
                    doc += d; lines += n; files += 1
            total_doc += doc; total_lines += lines
            print(f"  {ratio(doc, lines)}  {doc:5d} / {lines:5d}  {files:3d} files  {target}.{type_name}")
    print(f"main types: doc lines {total_doc} of {total_lines} non-blank: {ratio(total_doc, total_lines)}")


def _swift_files(folder):
    for directory, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def main(argv):
    least = 30
    root = "."
    only = None
    grdb = False
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--least":
            least = int(args.pop(0))
        elif arg == "--files":
            only, args = args, []
        elif arg == "--grdb":
            grdb = True
        elif arg == "--main":
            return report_main(root)
        elif arg in ("-h", "--help"):
            sys.exit(__doc__)
        else:
            root = arg
    report(list(grdb_files() if grdb else package_files(root, only)), least)


if __name__ == "__main__":
    main(sys.argv[1:])
