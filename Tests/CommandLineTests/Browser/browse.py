#!/usr/bin/env python3
"""Drives headless chromium through the DevTools protocol on a pipe (--remote-debugging-pipe:
NUL-terminated JSON on file descriptors 3 and 4, no WebSocket library needed).

  browse.py URL [--type TEXT] [--wait-cards N] [--screenshot FILE] [--size WxH] [--timeout S] [--hold-search]

Opens URL, optionally types TEXT into the search box as a person would (key by key), waits
until N result cards are shown and every thumbnail in them has loaded (or the timeout), then
prints one JSON object: the cards, their images (alt, src, loaded) and the summary line.
With --screenshot it also writes a PNG of the page. Exits 1 on timeout, after printing.
"""
import argparse, base64, json, os, subprocess, sys, tempfile, time, urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("--type", default=None)
parser.add_argument("--wait-cards", type=int, default=1)
parser.add_argument("--screenshot", default=None)
parser.add_argument("--size", default="1280x800")
parser.add_argument("--timeout", type=float, default=30)
parser.add_argument("--chromium", default="/usr/bin/chromium")
parser.add_argument("--select", type=int, default=None, help="press ArrowDown this many times and Enter (opens the preview)")
parser.add_argument("--hold-search", action="store_true",
                    help="hold the page's search requests until the one for the typed text is sent, read the page "
                         "while it waits (printed as \"pending\"), then let them through")
arguments = parser.parse_args()
width, height = (int(v) for v in arguments.size.split("x"))

to_browser_read, to_browser_write = os.pipe()
from_browser_read, from_browser_write = os.pipe()
profile = tempfile.TemporaryDirectory(prefix="searchlight-chromium-")


def child_setup():
    # The browser reads commands on 3 and writes replies on 4; both must survive exec.
    reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
    os.dup2(reading, 3)
    os.dup2(writing, 4)
    os.set_inheritable(3, True)
    os.set_inheritable(4, True)


browser = subprocess.Popen(
    [arguments.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
     "--remote-debugging-pipe", f"--user-data-dir={profile.name}", f"--window-size={width},{height}", "about:blank"],
    preexec_fn=child_setup, stdin=subprocess.DEVNULL,
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False)
os.close(to_browser_read)
os.close(from_browser_write)
reader = os.fdopen(from_browser_read, "rb", buffering=0)
pending = b""
next_id = 0


events = []


def read_message():
    global pending
    while b"\0" not in pending:
        chunk = reader.read(65536)
        if not chunk:
            raise SystemExit("chromium closed the pipe")
        pending += chunk
    raw, pending = pending.split(b"\0", 1)
    return json.loads(raw)


def send(method, params=None, session=None):
    global next_id
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_browser_write, json.dumps(message).encode() + b"\0")
    while True:
        reply = read_message()
        if "method" in reply:
            events.append(reply)
            continue
        if reply.get("id") == next_id:
            if "error" in reply:
                raise SystemExit(f"{method}: {reply['error']}")
            return reply.get("result", {})


def evaluate(session, expression):
    result = send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session)
    return result.get("result", {}).get("value")


def key(session, name, code, text=None):
    for kind in ("keyDown", "keyUp"):
        params = {"type": kind, "key": name, "code": code, "windowsVirtualKeyCode": {"ArrowDown": 40, "Enter": 13}.get(name, 0)}
        if text and kind == "keyDown":
            params["text"] = text
        send("Input.dispatchKeyEvent", params, session)


STATE = """(() => {
  const cards = [...document.querySelectorAll('#grid .card')];
  const images = cards.flatMap(card => [...card.querySelectorAll('img')]).map(image => ({
    alt: image.alt, src: image.getAttribute('src'), loaded: image.complete && image.naturalWidth > 0 && image.dataset.loaded === 'true'}));
  return {cards: cards.length, names: cards.map(card => card.querySelector('.name').textContent),
          icons: cards.filter(card => card.querySelector('svg.icon')).length, images,
          busy: document.getElementById('grid').getAttribute('aria-busy') === 'true',
          summary: document.getElementById('summary').textContent, query: document.getElementById('q').value,
          answered: document.getElementById('grid').dataset.query,
          address: location.pathname + location.search, preview: !document.getElementById('preview').hidden};
})()"""

def ready(state):
    """The results shown answer what the box holds (not an earlier prefix), no search is pending (the summary
    says what was found, not "Searching for…"), and their thumbnails loaded."""
    return (state.get("cards", 0) >= arguments.wait_cards and state.get("answered") == state.get("query")
            and not state.get("busy")
            and all(image["loaded"] for image in state.get("images", [])))


try:
    target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    send("Page.enable", {}, session)
    send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
    send("Page.navigate", {"url": arguments.url}, session)
    deadline = time.time() + arguments.timeout
    while time.time() < deadline and evaluate(session, "document.readyState") != "complete":
        time.sleep(0.05)
    if arguments.hold_search:
        send("Fetch.enable", {"patterns": [{"urlPattern": "*/api/search?*", "requestStage": "Request"}]}, session)
    if arguments.type is not None:
        evaluate(session, "document.getElementById('q').focus()")
        for character in arguments.type:
            send("Input.insertText", {"text": character}, session)
            time.sleep(0.03)
    pending_state = None
    if arguments.hold_search:
        # Wait until the request for the whole text is held, read the page, then let every held request go.
        wanted = "q=" + urllib.parse.quote_plus(arguments.type or "")
        held = []
        while time.time() < deadline:
            while events:
                event = events.pop(0)
                if event.get("method") == "Fetch.requestPaused":
                    held.append(event["params"])
            if any(wanted in request["request"]["url"] for request in held):
                break
            send("Runtime.evaluate", {"expression": "1"}, session)  # reads the events that came meanwhile
            time.sleep(0.05)
        pending_state = evaluate(session, STATE)
        for request in held:
            try:
                send("Fetch.continueRequest", {"requestId": request["requestId"]}, session)
            except SystemExit:
                pass  # a request the page aborted meanwhile
        send("Fetch.disable", {}, session)
    state = {}
    while time.time() < deadline:
        state = evaluate(session, STATE) or {}
        images = state.get("images", [])
        if ready(state):
            break
        time.sleep(0.1)
    ok = ready(state)
    if arguments.select is not None:
        for _ in range(arguments.select):
            key(session, "ArrowDown", "ArrowDown")
        key(session, "Enter", "Enter", "\r")
        while time.time() < deadline and not evaluate(session, "document.querySelector('.big img, .big svg') !== null && (document.querySelector('.big img') ? document.querySelector('.big img').complete : true) && document.querySelector('.attributes') !== null"):
            time.sleep(0.1)
        time.sleep(0.3)
        state = evaluate(session, STATE) or state
    if arguments.screenshot:
        time.sleep(0.4)  # the thumbnails' fade-in
        shot = send("Page.captureScreenshot", {"format": "png"}, session)
        with open(arguments.screenshot, "wb") as output:
            output.write(base64.b64decode(shot["data"]))
    if pending_state is not None:
        state["pending"] = pending_state
    print(json.dumps(state))
    sys.exit(0 if ok else 1)
finally:
    try:
        send("Browser.close")
    except BaseException:
        pass
    try:
        browser.wait(timeout=10)
    except subprocess.TimeoutExpired:
        browser.kill()
