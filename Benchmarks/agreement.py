#!/usr/bin/env python3
"""Checks what the index says of a sample of the files against libmagic run by `file`.

    agreement.py --files LIST --searchlight BIN --index INDEX [--sample N] --out PREFIX

Takes every k-th file of LIST (one absolute path per line) so that about N are checked, runs
`file --mime-type -b` and `file -b` on them (one full libmagic pass each, as `file` does),
and compares with the contentType and contentDescription the index holds for the same paths
(read with `searchlight list --json`). Writes PREFIX.env (counts) and PREFIX.txt (every
disagreement). The scan learns MIME types per description (ContentIdentifier): this is
where a wrong guess would show.

Files the index types otherwise on purpose — where libmagic's answer was a weak guess that
the name and the bytes overruled (TypeEvidence: the description says "(typed by …)") — are
counted apart (`on_purpose`) and listed in PREFIX.txt as `on purpose`; the agreement is
reported over the other files, so that the rule stays measured and nothing else hides in it.
"""

MARKER = " (typed by "

import argparse
import json
import subprocess


def libmagic(paths, *flags):
    listing = "\n".join(paths) + "\n"
    out = subprocess.run(["file", "-b", *flags, "-f", "-"], input=listing.encode(), capture_output=True, check=True)
    return out.stdout.decode("utf-8", "surrogateescape").split("\n")[: len(paths)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", required=True)
    parser.add_argument("--searchlight", required=True)
    parser.add_argument("--index", required=True)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    with open(args.files, encoding="utf-8", errors="surrogateescape") as f:
        files = [line.rstrip("\n") for line in f if line.strip()]
    step = max(1, len(files) // args.sample)
    sample = files[::step][: args.sample]
    types = dict(zip(sample, libmagic(sample, "--mime-type")))
    descriptions = dict(zip(sample, libmagic(sample)))

    indexed = {}
    lister = subprocess.Popen([args.searchlight, "list", "--json", "--index", args.index], stdout=subprocess.PIPE)
    for line in lister.stdout:
        item = json.loads(line)
        if item["path"] in types:
            indexed[item["path"]] = (item.get("contentType"), item.get("contentDescription"))
    lister.wait()

    type_agree = description_agree = on_purpose = 0
    with open(args.out + ".txt", "w", encoding="utf-8", errors="surrogateescape") as report:
        for path in sample:
            ours = indexed.get(path, (None, None))
            if ours[1] is not None and MARKER in ours[1]:
                on_purpose += 1
                report.write(f"on purpose\t{path}\tfile: {types[path]}, {descriptions[path]}\tindex: {ours[0]}, {ours[1]}\n")
                continue
            if ours[0] == types[path]:
                type_agree += 1
            else:
                report.write(f"type\t{path}\tfile: {types[path]}\tindex: {ours[0]}\n")
            if ours[1] == descriptions[path]:
                description_agree += 1
            else:
                report.write(f"description\t{path}\tfile: {descriptions[path]}\tindex: {ours[1]}\n")
    with open(args.out + ".env", "w", encoding="utf-8") as env:
        env.write(f"checked={len(sample) - on_purpose}\ntypes_agree={type_agree}\ndescriptions_agree={description_agree}\n"
                  f"on_purpose={on_purpose}\n")


if __name__ == "__main__":
    main()
