#!/usr/bin/env python3
"""Drives the release `searchlight watch` from outside, as a user's programs would: bursts of
hundreds of operations on a deep tree, pause/resume, kill -9 and restart, a supervisor on
NOTIFY_SOCKET that stops reading after READY=1. Checks the index equals the disk (paths and
sizes) after each phase, that SIGTERM ends it with status 0, and that no self-check had to
repair anything but the one kind no directory watch can see: a file written through a name that
was gone before the watcher looked (its other names are repaired; Docs/Guide/Troubleshooting.md says so).

    Tests/Scripts/drive-watch.py BINARY SEED WORKDIR
    for s in $(seq 1 20); do Tests/Scripts/drive-watch.py .build/release/searchlight $s /tmp/drive-$s; done

(after `make release`, which also writes the ICU data the release executables share beside them)

WORKDIR is emptied first. Exit status 0 when every phase converged."""
import json, os, random, re, shutil, signal, socket, subprocess, sys, time

if len(sys.argv) != 4:
    sys.exit(__doc__)
BIN = sys.argv[1]; seed = int(sys.argv[2]); work = sys.argv[3]
rng = random.Random(seed)
root = os.path.join(work, "root"); index = os.path.join(work, "index.sqlite")
shutil.rmtree(work, ignore_errors=True); os.makedirs(root)
env = dict(os.environ, SEARCHLIGHT_INDEX=index, XDG_CONFIG_HOME=os.path.join(work, "cfg"))
# The watch backs off while the machine is under CPU pressure, and converges later than the
# timeouts here allow on a loaded machine: no pressure files unless DRIVE_PRESSURE=1.
if os.environ.get("DRIVE_PRESSURE") != "1":
    env["SEARCHLIGHT_PRESSURE_ROOT"] = os.path.join(work, "no-pressure")

def disk():
    out = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for f in files:
            if f.startswith("."): continue
            p = os.path.join(d, f)
            if os.path.islink(p) or not os.path.isfile(p): continue
            out[os.path.relpath(p, root)] = os.path.getsize(p)
    return out

def indexed():
    r = subprocess.run([BIN, "list", "--json"], env=env, capture_output=True, text=True)
    if r.returncode != 0: return None
    return {j["id"]: j["size"] for j in map(json.loads, r.stdout.splitlines())}

# Writes made through a name of a file with more than one: (name, inode).
writes_through_links = []
def write_through(p, mode, text):
    try:
        st = os.stat(p)
        if st.st_nlink > 1: writes_through_links.append((p, st.st_ino))
    except FileNotFoundError:
        pass
    with open(p, mode) as f: f.write(text)

log_seen = 0
def unexplained_repairs():
    """The self-check repairs logged since the last call, but those of files written through a
    name that no longer names them (no directory watch can see such a write)."""
    global log_seen
    text = open(os.path.join(work, "watch.log"), errors="replace").read()
    new, log_seen = text[log_seen:], len(text)
    vanished = set()
    for p, ino in writes_through_links:
        try:
            if os.lstat(p).st_ino != ino: vanished.add(ino)
        except FileNotFoundError:
            vanished.add(ino)
    writes_through_links.clear()
    bad = []
    for line in new.splitlines():
        m = re.search(r"repaired \d+ items in [^:]*: (.*)$", line)
        if not m: continue
        for change, quoted in re.findall(r'(added|updated|removed) "((?:[^"\\]|\\.)*)"', m.group(1)):
            try: ino = os.lstat(os.path.join(root, json.loads('"' + quoted + '"'))).st_ino
            except (ValueError, FileNotFoundError): ino = None
            path = quoted
            if change != "updated" or ino not in vanished: bad.append(f"{change} {path}")
        if m.group(1).endswith("…"): bad.append("(more)")
    return bad

def converge(label, timeout=120):
    ops.write(f"--- converge {label}\n"); ops.flush()
    deadline = time.time() + timeout
    while time.time() < deadline:
        d, i = disk(), indexed()
        if i == d:
            bad = unexplained_repairs()
            if bad: print(f"seed {seed} {label}: self-check repairs {bad[:5]}", flush=True)
            return not bad
        time.sleep(0.3)
    d, i = disk(), indexed() or {}
    print(f"seed {seed} {label}: NOT CONVERGED; missing {sorted(set(d)-set(i))[:5]} extra {sorted(set(i)-set(d))[:5]} "
          f"sizes {[k for k in d if k in i and d[k]!=i[k]][:5]}", flush=True)
    return False

names = ["a", "b", "report", "Notes", "élan", "x y", "深", "data"]
def rpath(depth=None):
    parts = [rng.choice(names) + str(rng.randint(0, 3)) for _ in range(depth or rng.randint(1, 6))]
    return os.path.join(root, *parts)
def folders():
    return [d for d, _, _ in os.walk(root)]
def files():
    return [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]

ops = open(os.path.join(work, "operations.log"), "a")   # what was done, to read after a failure
def did(*words):
    ops.write(" ".join(os.path.relpath(w, root) if isinstance(w, str) and w.startswith(work) else str(w) for w in words) + "\n")

def burst(n):
    ops.write(f"--- burst of {n}\n")
    for _ in range(n):
        op = rng.random()
        try:
            if op < 0.30:
                p = rpath() + ".txt"; os.makedirs(os.path.dirname(p), exist_ok=True)
                write_through(p, "a", "word " * rng.randint(1, 50))
                did("write", p)
            elif op < 0.40 and files():
                p = rng.choice(files()); write_through(p, "w", "") if rng.random() < 0.5 else write_through(p, "a", "more\n")
                did("truncate or append", p)
            elif op < 0.52 and files():
                src = rng.choice(files()); dst = rpath() + ".md"; os.makedirs(os.path.dirname(dst), exist_ok=True); os.rename(src, dst)
                did("mv", src, dst)
            elif op < 0.62 and len(folders()) > 1:
                src = rng.choice(folders()[1:]); dst = rpath(rng.randint(1, 3))
                if not dst.startswith(src + os.sep) and not os.path.exists(dst):
                    os.makedirs(os.path.dirname(dst), exist_ok=True); os.rename(src, dst); did("mv folder", src, dst)
            elif op < 0.70 and len(folders()) > 1:
                d = rng.choice(folders()[1:]); shutil.rmtree(d); did("rm -rf", d)
            elif op < 0.80 and files():
                f = rng.choice(files()); os.unlink(f); did("rm", f)
            elif op < 0.86 and files():
                src = rng.choice(files()); dst = rpath() + ".lnk.txt"; os.makedirs(os.path.dirname(dst), exist_ok=True); os.link(src, dst)
                did("ln", src, dst)
            elif op < 0.92:
                p = rpath() + ".tmp"; os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w") as f: f.write("saved " * 10)
                os.replace(p, p[:-4] + ".doc.txt")   # atomic-replace save
                did("save", p[:-4] + ".doc.txt")
            elif files():
                src = rng.choice(files())   # move out of the root and back in
                out = os.path.join(work, "outside"); os.makedirs(out, exist_ok=True)
                dst = os.path.join(out, os.path.basename(src)); os.rename(src, dst); did("move out", src)
                if rng.random() < 0.5:
                    back = rpath() + ".back"; os.rename(dst, back); did("move back", back)
        except (FileNotFoundError, FileExistsError, NotADirectoryError, IsADirectoryError, OSError):
            pass

# A supervisor that reads until READY=1 and then never again.
sock_path = os.path.join(work, "notify.sock")
sup = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); sup.bind(sock_path)
def start():
    log = open(os.path.join(work, "watch.log"), "a")
    # A self-check every 30 s: what only a check can repair (a write through a name gone
    # before the watcher looked) converges within the timeout, and any repair is judged.
    p = subprocess.Popen([BIN, "watch", root, "--no-thumbnails", "--self-check-interval", "30"], env=dict(env, NOTIFY_SOCKET=sock_path), stderr=log, stdout=log)
    sup.settimeout(60)
    while b"READY=1" not in sup.recv(4096): pass
    return p

burst(100)
w = start()
ok = converge("first reconcile")
for rnd in range(4):
    burst(300); ok &= converge(f"round {rnd} burst")
    subprocess.run([BIN, "pause"], env=env, capture_output=True)
    burst(200); subprocess.run([BIN, "resume"], env=env, capture_output=True); ok &= converge(f"round {rnd} paused")
    burst(150); w.send_signal(signal.SIGKILL); w.wait(); burst(150)
    w = start(); ok &= converge(f"round {rnd} killed")
w.send_signal(signal.SIGTERM)
try: rc = w.wait(timeout=60)
except subprocess.TimeoutExpired: rc = "hung"; w.kill()
if rc != 0: print(f"seed {seed}: SIGTERM ended with {rc}", flush=True); ok = False
bad = unexplained_repairs()
if bad: print(f"seed {seed}: self-check repairs {bad[:5]}", flush=True); ok = False
print(f"seed {seed}: {'ok' if ok else 'FAILED'}", flush=True)
sys.exit(0 if ok else 1)
