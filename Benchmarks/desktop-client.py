"""Times GNOME Shell's calls to searchlight-desktop on a bus: desktop-client.py ADDRESS ROUNDS.

One connection, synchronous calls through GLib's GDBus (PyGObject), as GNOME Shell makes them:
GetInitialResultSet for each prefix of a few words and phrases, then GetResultMetas of the
first five results. The first call (which starts the service) is not counted.
"""
import os
import statistics
import sys
import time

from gi.repository import Gio, GLib

address, rounds = sys.argv[1], int(sys.argv[2])
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
NAME, PATH, INTERFACE = "org.searchlight.Desktop", "/org/searchlight/SearchProvider", "org.gnome.Shell.SearchProvider2"


def call(method, parameters):
    started = time.perf_counter()
    reply = bus.call_sync(NAME, PATH, INTERFACE, method, parameters, None, Gio.DBusCallFlags.NONE, 60000, None)
    return (time.perf_counter() - started) * 1000, reply.unpack()[0]


started_ms, _ = call("GetInitialResultSet", GLib.Variant("(as)", (["report"],)))
print(f"activation and first answer: {started_ms:.1f} ms")
pid = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID",
                    GLib.Variant("(s)", (NAME,)), None, Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]


def cpu_ms():
    """The service's user + system CPU time (from /proc): per call, it does not depend on the machine's load."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


cpu_before = cpu_ms()
phrases = ["report", "quarterly", "holiday photo", "budget 2024", "résumé", "xylophone", "meeting notes", "canon"]
initial, metas, results, one_letter = [], [], [], []
search_cpu = 0.0
for _ in range(rounds):
    for phrase in phrases:
        for length in range(1, len(phrase) + 1):
            if phrase[:length].endswith(" "):
                continue
            terms = phrase[:length].split()
            before = cpu_ms()
            elapsed, ids = call("GetInitialResultSet", GLib.Variant("(as)", (terms,)))
            search_cpu += cpu_ms() - before
            initial.append(elapsed)
            if length == 1:
                one_letter.append(elapsed)
            results.append(len(ids))
            if ids:
                elapsed, _ = call("GetResultMetas", GLib.Variant("(as)", (ids[:5],)))
                metas.append(elapsed)


def line(name, values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    print(f"RESULT {name} calls={len(values)} p50_ms={statistics.median(values):.2f} p95_ms={p95:.2f} max_ms={values[-1]:.2f}")


cpu = cpu_ms() - cpu_before
line("GetInitialResultSet", initial)
line("GetInitialResultSet(one letter)", one_letter)
line("GetResultMetas(5)", metas)
print(f"results per search: median {statistics.median(results):.0f}; "
      f"service CPU per call: {cpu / (len(initial) + len(metas)):.2f} ms, "
      f"per GetInitialResultSet {search_cpu / len(initial):.2f} ms (clock ticks summed)")
