#!/usr/bin/env python3
"""Search as a person types it: every prefix of real words, side by side with plocate and Recoll.

    keystrokes.py --bin DIR --index INDEX --tree DIR [--plocate-db DB] [--recoll-conf DIR]
              [--surfaces cli,count,api,desktop] [--words N] [--markdown FILE] [--label TEXT]

Picks N words (default 20) that occur in the tree's names and texts, spread from common to rare
(`words_of`), and types each letter by letter: `r`, `re`, `rep`, … Then half as many two-word
queries, the second word typed letter by letter after the first (`budget q`, `budget qu`, …).
Each query is asked of every surface, one after the other, each timed from the outside:

- cli: `searchlight search Q --limit 20`, a process per query, as a script or a terminal runs it;
- count: `searchlight search Q --count`;
- api: `GET /api/search?q=Q&limit=50` of a running `searchlight serve`, one kept-alive connection,
  as the page asks on each keystroke;
- desktop: `GetInitialResultSet` of searchlight-desktop through a private dbus-daemon, as GNOME
  Shell calls it (PyGObject's GDBus, one connection);
- plocate: `plocate -d DB -i -l 20 Q` on the same names (names only: the floor of a name search);
- recoll: `recollq -c CONF -b -n 20 'Q*'` on the same texts (its query language's prefix).

Prints p50, p95 and max per prefix length (1, 2, 3, 4, 5 and more letters, two words) for each
surface, and the ratio of searchlight's CLI to plocate and Recoll at p95. Nothing is asserted:
the targets (Docs/Contract.md#performance-targets: p95 ≤ 50 ms, max ≤ 200 ms) are for a person
to read against. --index may be a postgres:// address.
"""
import argparse
import collections
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--bin", required=True, help="the folder of searchlight and searchlight-serve")
parser.add_argument("--index", required=True)
parser.add_argument("--tree", required=True, help="the folder the index holds (the words are taken from it)")
parser.add_argument("--plocate-db")
parser.add_argument("--recoll-conf")
parser.add_argument("--surfaces", default="cli,count,api,desktop")
parser.add_argument("--words", type=int, default=20)
parser.add_argument("--markdown")
parser.add_argument("--label", default="")
arguments = parser.parse_args()
searchlight = os.path.join(arguments.bin, "searchlight")
surfaces = [surface for surface in arguments.surfaces.split(",") if surface]

WORD = re.compile(r"[A-Za-z]{5,12}")
TEXT_SUFFIXES = {".txt", ".md", ".html", ".htm", ".csv", ".json", ".py", ".c", ".h", ".rst", ".xml", ""}


def words_of(tree, count):
    """`count` words of 5 to 12 ASCII letters that the tree's names and texts hold, lowercased,
    at evenly spaced ranks of how many files hold them (among those in at least two): from a
    word in most files to one in a few. Deterministic for a tree."""
    holders = collections.Counter()
    for folder, folders, files in os.walk(tree):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            found = {word.lower() for word in WORD.findall(name)}
            path = os.path.join(folder, name)
            suffix = os.path.splitext(name)[1].lower()
            if suffix in TEXT_SUFFIXES or name.lower().startswith(("readme", "changelog", "copyright", "news")):
                try:
                    with open(path, "rb") as handle:
                        text = handle.read(256 * 1024).decode("utf-8")
                    found.update(word.lower() for word in WORD.findall(text))
                except (OSError, UnicodeDecodeError):
                    pass
            holders.update(found)
    ranked = sorted((word for word, files in holders.items() if files >= 2), key=lambda word: (-holders[word], word))
    if len(ranked) <= count:
        return ranked
    step = len(ranked) / count
    return [ranked[int(index * step)] for index in range(count)]


def queries_of(words):
    """Every prefix of each word, then the second word of each pair typed after the first."""
    queries = [(str(length), word[:length]) for word in words for length in range(1, len(word) + 1)]
    for first, second in zip(words[0::2], words[1::2]):
        queries += [("two words", f"{first} {second[:length]}") for length in range(1, len(second) + 1)]
    return queries


def timed(run):
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def run_quietly(command, env=None):
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}: {result.stderr.decode(errors='replace')}")


class Server:
    """`searchlight serve` on a free loopback port, asked through one kept-alive connection."""

    def __init__(self):
        # A shared index's page has each person sign in; on loopback the benchmark reads it as
        # the URL's role, as `searchlight search` does.
        shared = ["--no-sign-in"] if arguments.index.startswith(("postgres://", "postgresql://")) else []
        self.process = subprocess.Popen([searchlight, "serve", "--port", "0", "--index", arguments.index] + shared,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline and self.port is None:
            line = self.process.stdout.readline()
            match = re.search(r"http://127\.0\.0\.1:([0-9]+)/", line)
            if match:
                self.port = int(match.group(1))
            elif not line and self.process.poll() is not None:
                break
        if self.port is None:
            self.stop()
            raise SystemExit("searchlight serve did not say where it listens")
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def search(self, query):
        self.connection.request("GET", "/api/search?" + urllib.parse.urlencode({"q": query, "limit": "50"}))
        response = self.connection.getresponse()
        response.read()
        if response.status not in (200, 400):
            raise SystemExit(f"/api/search?q={query}: HTTP {response.status}")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Desktop:
    """searchlight-desktop activated on a private session bus, asked as GNOME Shell asks."""

    def __init__(self):
        from gi.repository import Gio, GLib
        self.GLib, self.Gio = GLib, Gio
        self.folder = tempfile.mkdtemp(prefix="searchlight-typing-bus-")
        services = os.path.join(self.folder, "services")
        os.mkdir(services)
        desktop = os.path.join(self.folder, "searchlight-desktop")
        os.symlink(os.path.join(os.path.abspath(arguments.bin), "searchlight-serve"), desktop)
        with open(os.path.join(services, "org.searchlight.Desktop.service"), "w") as service:
            service.write(f"[D-BUS Service]\nName=org.searchlight.Desktop\nExec={desktop}\n")
        config = os.path.join(self.folder, "session.conf")
        with open(config, "w") as handle:
            handle.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir={self.folder}</listen><servicedir>{services}</servicedir>
<policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy></busconfig>
""")
        environment = dict(os.environ, SEARCHLIGHT_INDEX=arguments.index, XDG_CACHE_HOME=os.path.join(self.folder, "cache"))
        self.daemon = subprocess.Popen(["dbus-daemon", "--config-file", config, "--print-address=1", "--nofork"],
                                       stdout=subprocess.PIPE, text=True, env=environment)
        address = self.daemon.stdout.readline().strip()
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        self.bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        self.search("activation")  # starts the service: not counted

    def search(self, query):
        self.bus.call_sync("org.searchlight.Desktop", "/org/searchlight/SearchProvider", "org.gnome.Shell.SearchProvider2",
                           "GetInitialResultSet", self.GLib.Variant("(as)", (query.split(),)), None,
                           self.Gio.DBusCallFlags.NONE, 60000, None)

    def stop(self):
        self.daemon.terminate()
        self.daemon.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def measure():
    words = words_of(arguments.tree, arguments.words)
    queries = queries_of(words)
    askers = {}
    server = desktop = None
    if "cli" in surfaces:
        askers["searchlight search"] = lambda q: run_quietly([searchlight, "search", *q.split(), "--limit", "20", "--index", arguments.index])
    if "count" in surfaces:
        askers["searchlight search --count"] = lambda q: run_quietly([searchlight, "search", *q.split(), "--count", "--index", arguments.index])
    if arguments.plocate_db:
        askers["plocate -i -l 20"] = lambda q: run_quietly(["plocate", "-d", arguments.plocate_db, "-i", "-l", "20", *q.split()])
    if arguments.recoll_conf:
        askers["recollq -n 20 (prefix*)"] = lambda q: run_quietly(
            ["recollq", "-c", arguments.recoll_conf, "-b", "-n", "20", " ".join(word + "*" for word in q.split())])
    try:
        # Started within the `try`: a surface that fails to start (no PyGObject for the desktop)
        # stops the server started before it.
        if "api" in surfaces:
            server = Server()
            askers["/api/search (limit 50)"] = server.search
        if "desktop" in surfaces:
            desktop = Desktop()
            askers["desktop GetInitialResultSet"] = desktop.search
        # The tables' rows: searchlight's surfaces, then the references.
        askers = dict(sorted(askers.items(), key=lambda item: not item[0].startswith(("searchlight", "/api", "desktop"))))
        times = {name: collections.defaultdict(list) for name in askers}
        slowest = {name: [] for name in askers}
        for group, query in queries:
            for name, ask in askers.items():
                elapsed = timed(lambda: ask(query))
                times[name][group].append(elapsed)
                slowest[name] = sorted(slowest[name] + [(elapsed, query)], reverse=True)[:3]
    finally:
        if server:
            server.stop()
        if desktop:
            desktop.stop()
    return words, queries, times, slowest


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def report(words, queries, times, slowest):
    shown_index = re.sub(r"//([^:@/]+):[^@/]*@", r"//\1@", arguments.index)  # no password in the table
    groups = ["1", "2", "3", "4", "5+", "two words", "all"]

    def values(by_group, group):
        if group == "all":
            return [value for values in by_group.values() for value in values]
        if group == "5+":
            return [value for key, values in by_group.items() if key.isdigit() and int(key) >= 5 for value in values]
        return by_group.get(group, [])

    lines = [f"### As typed{' — ' + arguments.label if arguments.label else ''}", "",
             f"{len(words)} words ({', '.join(words)}), {len(queries)} queries, index `{shown_index}`.",
             "p50 / p95 / max in ms, by letters typed.", "",
             "| surface | " + " | ".join(groups) + " |", "|---|" + "--:|" * len(groups)]
    for name, by_group in times.items():
        cells = []
        for group in groups:
            found = values(by_group, group)
            cells.append(f"{statistics.median(found):.1f} / {percentile(found, 0.95):.1f} / {max(found):.1f}" if found else "—")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Slowest: " + "; ".join(f"{name}: " + ", ".join(f"`{query}` {elapsed:.0f}" for elapsed, query in found)
                                         for name, found in slowest.items()) + " (ms).")
    everything = {name: values(by_group, "all") for name, by_group in times.items()}
    cli = everything.get("searchlight search")
    for reference in ("plocate -i -l 20", "recollq -n 20 (prefix*)"):
        if cli and reference in everything:
            ratio = percentile(cli, 0.95) / percentile(everything[reference], 0.95)
            lines.append(f"\nsearchlight search / {reference.split()[0]} at p95: **{ratio:.2f}**")
    text = "\n".join(lines) + "\n"
    print(text)
    if arguments.markdown:
        with open(arguments.markdown, "a") as output:
            output.write(text + "\n")


report(*measure())
