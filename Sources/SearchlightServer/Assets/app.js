// Searchlight's page. It talks to the JSON API only (/api/openapi.json) and builds no URL of an
// item itself: every result carries its itemURL, fileURL, thumbnailURL and openURL.
"use strict";

const $ = (id) => document.getElementById(id);
const token = document.querySelector('meta[name="searchlight-token"]').content;
const state = {
  q: "", mode: "auto", kind: "", date: "", domain: "",
  items: [], selected: -1, previewed: null, controller: null, timer: 0, roots: [],
};
const DEBOUNCE_MS = 120;
const LIMIT = 200;

// ---- What the box holds: words, or a query string ----

/** A query string has a comparison, a boolean operator or a function call; a search word's
 *  comparison (modified:>2024-01-01) is not one. */
function looksLikeQuery(text) {
  return /(==|!=|(?<!:)(<=|>=|[<>])|&&|\|\||\bInRange\s*\(|\$time\.)/.test(text);
}
function effectiveMode() {
  if (state.mode !== "auto") return state.mode;
  return looksLikeQuery(state.q) ? "query" : "words";
}

// ---- The address carries the search ----

function readAddress() {
  const params = new URLSearchParams(location.search);
  state.q = params.get("q") || "";
  state.mode = ["words", "query"].includes(params.get("mode")) ? params.get("mode") : "auto";
  state.kind = params.get("kind") || "";
  state.date = params.get("date") || "";
  state.domain = params.get("domain") || "";
}
function writeAddress() {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.mode !== "auto") params.set("mode", state.mode);
  if (state.kind) params.set("kind", state.kind);
  if (state.date) params.set("date", state.date);
  if (state.domain) params.set("domain", state.domain);
  const search = params.toString();
  const address = search ? "?" + search : location.pathname;
  if (address !== location.search) history.replaceState(null, "", address);
}
function showState() {
  $("q").value = state.q;
  for (const button of document.querySelectorAll(".mode button")) {
    button.setAttribute("aria-checked", String(button.dataset.mode === state.mode));
  }
  for (const button of document.querySelectorAll("#kinds button")) {
    button.setAttribute("aria-pressed", String(button.dataset.kind === state.kind));
  }
  $("date").value = state.date;
  $("domain").value = state.domain;
  showMode();
}
function showMode() {
  const mode = effectiveMode();
  $("search-form").classList.toggle("is-query", mode === "query");
  for (const button of document.querySelectorAll(".mode button")) {
    button.classList.toggle("detected", state.mode === "auto" && button.dataset.mode === mode && state.q !== "");
  }
}

// ---- Searching as one types ----

function scheduleSearch() {
  clearTimeout(state.timer);
  if (state.q.trim()) renderPending();
  state.timer = setTimeout(() => runSearch({ keepSelection: false }), DEBOUNCE_MS);
}

async function runSearch({ keepSelection }) {
  writeAddress();
  showMode();
  if (state.controller) state.controller.abort();
  if (!state.q.trim()) {
    state.controller = null;
    state.items = [];
    renderWelcome();
    return;
  }
  const controller = new AbortController();
  state.controller = controller;
  // A live refresh of the same words keeps its results as they are until the new ones come.
  if (!keepSelection) renderPending();
  const mode = effectiveMode();
  const params = new URLSearchParams({ q: state.q, limit: String(LIMIT) });
  if (state.kind) params.set("kind", state.kind);
  if (state.date) params.set("date", state.date);
  if (state.domain) params.set("domain", state.domain);
  const started = performance.now();
  try {
    const response = await fetch(`/api/${mode === "query" ? "query" : "search"}?${params}`, { signal: controller.signal });
    const body = await response.json();
    if (controller !== state.controller) return;
    if (!response.ok) { renderError(body); return; }
    const previous = keepSelection && state.items[state.selected];
    state.items = body.items;
    renderResults(performance.now() - started);
    const again = previous ? state.items.findIndex((item) => item.itemURL === previous.itemURL) : -1;
    select(again >= 0 ? again : -1, { scroll: false });
    if (state.previewed && keepSelection) refreshPreview();
  } catch (error) {
    if (error.name !== "AbortError") renderError({ error: "The server did not answer: " + error.message });
  }
}

// ---- Results ----

const KIND_LABEL = {
  document: "Document", pdf: "PDF", image: "Image", presentation: "Slides",
  spreadsheet: "Sheet", text: "Text", other: "File",
};

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/** A file icon for items without a thumbnail: a sheet, a coloured band with the extension, a glyph of the kind. */
function typeIcon(item, className = "icon") {
  const extension = (item.displayName.includes(".") ? item.displayName.split(".").pop() : KIND_LABEL[item.kind])
    .slice(0, 4).toUpperCase();
  const glyphs = {
    document: '<path class="glyph" d="M18 30h26M18 36h26M18 42h18"/>',
    pdf: '<path class="glyph" d="M18 30h26M18 36h20M18 42h24"/>',
    image: '<path class="glyph" d="M16 44l9-10 7 7 5-5 9 8"/><circle class="glyph" cx="38" cy="28" r="3"/>',
    presentation: '<rect class="glyph" x="17" y="26" width="28" height="17" rx="2"/>',
    spreadsheet: '<path class="glyph" d="M17 27h28v17H17zM17 33h28M17 39h28M27 27v17M36 27v17"/>',
    text: '<path class="glyph" d="M18 30h26M18 36h26M18 42h14"/>',
    other: '<circle class="glyph" cx="31" cy="35" r="7"/>',
  };
  const holder = element("span");
  holder.innerHTML = `<svg class="${className} k-${item.kind}" viewBox="0 0 62 74" role="img" aria-label="${KIND_LABEL[item.kind]}">
    <path class="sheet" d="M5 3h36l16 16v50a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z"/>
    <path class="fold" d="M41 3v14a2 2 0 0 0 2 2h14"/>
    ${glyphs[item.kind] || glyphs.other}
    <rect class="band" x="3" y="52" width="40" height="15" rx="2"/>
    <text x="23" y="63.5" text-anchor="middle"></text></svg>`;
  holder.querySelector("text").textContent = extension;
  return holder.firstElementChild;
}

/** The thumbnail as an <img> whose src is the item's thumbnailURL, or the type icon. */
function thumbnail(item, big) {
  if (!item.thumbnailURL) return typeIcon(item);
  const image = element("img");
  image.alt = item.displayName;
  image.decoding = "async";
  if (!big) image.loading = "lazy";
  image.addEventListener("load", () => { image.classList.add("loaded"); image.dataset.loaded = "true"; });
  image.addEventListener("error", () => { image.dataset.failed = "true"; image.replaceWith(typeIcon(item)); });
  image.src = item.thumbnailURL;
  return image;
}

/** Text with the words of the search marked: `[word]` in a snippet, or the query words in a name. */
function marked(text, words) {
  const node = element("span");
  if (!text) return node;
  if (words === "brackets") {
    for (const [index, part] of text.split(/\[([^\[\]]*)\]/).entries()) {
      node.append(index % 2 ? element("mark", null, part) : part);
    }
    return node;
  }
  const escaped = words.filter((w) => w.length > 0).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (!escaped.length) { node.textContent = text; return node; }
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${escaped.join("|")})`, "giu");
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    node.append(text.slice(last, match.index), element("mark", null, match[0]));
    last = match.index + match[0].length;
  }
  node.append(text.slice(last));
  return node;
}

function queryWords() {
  return effectiveMode() === "words" ? state.q.split(/\s+/).filter(Boolean) : [];
}

function formatSize(bytes) {
  if (bytes === null || bytes === undefined) return "";
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes, unit = -1;
  do { value /= 1000; unit += 1; } while (value >= 1000 && unit < units.length - 1);
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
const dayFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
function formatDate(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  const today = new Date();
  if (date.toDateString() === today.toDateString()) return "Today " + timeFormat.format(date);
  return dayFormat.format(date);
}
function folderOf(item) {
  const slash = item.id.lastIndexOf("/");
  return slash < 0 ? "" : item.id.slice(0, slash);
}

function card(item, index) {
  const node = element("article", "card");
  // Its drive is not mounted: still found, greyed, and said so.
  if (item.offline) {
    node.classList.add("offline");
    node.title = "Not connected: its drive is not mounted";
  }
  node.setAttribute("role", "option");
  node.setAttribute("aria-selected", "false");
  node.dataset.index = index;
  const thumb = element("div", "thumb");
  if (item.kind === "image" && item.thumbnailURL) thumb.classList.add("photo");
  thumb.append(thumbnail(item, false));
  const info = element("div", "info");
  const name = element("div", "name");
  name.title = item.id;
  name.append(marked(item.displayName, queryWords()));
  info.append(name);
  const base = item.displayName.replace(/\.[^.]*$/, "");
  if (item.title && item.title !== base && item.title !== item.displayName) {
    const title = element("div", "title");
    title.append(marked(item.title, queryWords()));
    info.append(title);
  }
  const meta = element("div", "meta");
  meta.append(element("span", `badge k-${item.kind}`, KIND_LABEL[item.kind]));
  for (const part of [formatSize(item.size), formatDate(item.contentModificationDate)]) {
    if (part) meta.append(element("span", null, "·"), element("span", null, part));
  }
  info.append(meta);
  const folder = folderOf(item);
  if (folder) info.append(element("div", "folder", "\u200e" + folder + "\u200e"));
  if (item.snippet) {
    const snippet = element("div", "snippet");
    snippet.append(marked(item.snippet, "brackets"));
    info.append(snippet);
  }
  node.append(thumb, info);
  node.addEventListener("click", () => { select(index, { scroll: false }); openPreview(); });
  return node;
}

/**
 * While a search is on its way: the summary says what is being searched for, and the results
 * of the words typed before stay, marked as outdated (dimmed if the answer takes a moment), so
 * that nothing shown claims to answer what the box holds before it does.
 */
function renderPending() {
  const grid = $("grid");
  grid.setAttribute("aria-busy", "true");
  grid.classList.add("outdated");
  const summary = $("summary");
  summary.classList.add("pending");
  summary.replaceChildren(element("span", "spinner"), `Searching for “${state.q.trim()}”…`);
}

function renderResults(milliseconds) {
  const grid = $("grid");
  grid.removeAttribute("aria-busy");
  grid.classList.remove("outdated");
  $("summary").classList.remove("pending");
  grid.replaceChildren(...state.items.map(card));
  grid.dataset.query = state.q;  // what these results answer (tests wait for it)
  $("empty").hidden = state.items.length > 0;
  const count = state.items.length;
  const summary = $("summary");
  summary.replaceChildren();
  if (count === 0) {
    $("empty").replaceChildren(element("h2", null, "Nothing found"),
      element("p", null, filtersActive() ? "Try another kind, date or folder, or fewer words."
        : "No name, title or text starts with these words."));
    return;
  }
  const spelling = state.items[0].searchingAlsoFor;
  if (spelling) {
    // The typed words found nothing: these are the results of the words as the index spells them.
    const respelled = element("button", "did-you-mean", spelling);
    respelled.type = "button";
    respelled.addEventListener("click", () => { state.q = spelling; showState(); runSearch({ keepSelection: false }); });
    summary.append("Did you mean ", respelled, "? ");
  }
  summary.append(element("b", null, count >= LIMIT ? `${LIMIT}+` : String(count)),
    ` ${count === 1 ? "result" : "results"} · ${effectiveMode() === "query" ? "query" : "words"} · ${Math.round(milliseconds)} ms`);
}

function filtersActive() { return Boolean(state.kind || state.date || state.domain); }

function renderError(body) {
  state.items = [];
  $("grid").replaceChildren();
  $("grid").removeAttribute("aria-busy");
  $("grid").classList.remove("outdated");
  $("summary").classList.remove("pending");
  $("summary").textContent = "";
  const box = element("div", "error");
  box.append(element("strong", null, body.error || "Something went wrong."));
  if (body.caret) box.append(element("pre", null, body.caret));
  $("empty").replaceChildren(box);
  $("empty").hidden = false;
}

async function renderWelcome() {
  $("grid").replaceChildren();
  $("grid").removeAttribute("aria-busy");
  $("grid").classList.remove("outdated");
  $("summary").classList.remove("pending");
  $("summary").textContent = "";
  closePreview();
  const empty = $("empty");
  const heading = element("h2", null, "Search your documents");
  const line = element("p", null, "Type a few letters of any word in a name, a title or the text.");
  const hints = element("div", "hints");
  for (const example of ["report", "resume", 'contentTypeTree == "image"', 'kMDItemTextContent == "budget"cd']) {
    const button = element("button");
    button.type = "button";
    button.append(looksLikeQuery(example) ? element("code", null, example) : example);
    button.addEventListener("click", () => { state.q = example; showState(); runSearch({ keepSelection: false }); });
    hints.append(button);
  }
  const keys = element("p", "keys");
  keys.innerHTML = "<kbd>/</kbd> search · <kbd>←</kbd><kbd>↑</kbd><kbd>→</kbd><kbd>↓</kbd> move · <kbd>Enter</kbd> preview · <kbd>Esc</kbd> close";
  empty.replaceChildren(heading, line, hints, keys);
  empty.hidden = false;
  try {
    const status = await (await fetch("/api/status")).json();
    const folders = status.domains.length;
    line.textContent = `${status.items.toLocaleString()} items in ${folders} ${folders === 1 ? "folder" : "folders"}. `
      + "Type a few letters of any word in a name, a title or the text.";
  } catch { /* the welcome works without numbers */ }
}

// ---- Selection and keyboard ----

function select(index, { scroll }) {
  const cards = $("grid").children;
  if (state.selected >= 0 && cards[state.selected]) cards[state.selected].setAttribute("aria-selected", "false");
  state.selected = index;
  if (index >= 0 && cards[index]) {
    cards[index].setAttribute("aria-selected", "true");
    if (scroll) cards[index].scrollIntoView({ block: "nearest" });
  }
}
function columns() {
  const cards = $("grid").children;
  if (cards.length < 2) return 1;
  const top = cards[0].offsetTop;
  let count = 0;
  while (count < cards.length && cards[count].offsetTop === top) count += 1;
  return Math.max(count, 1);
}
function move(delta) {
  const count = state.items.length;
  if (!count) return;
  const next = state.selected < 0 ? 0 : Math.min(Math.max(state.selected + delta, 0), count - 1);
  select(next, { scroll: true });
  if (!$("preview").hidden) openPreview();
}

document.addEventListener("keydown", (event) => {
  const inBox = event.target === $("q");
  if (event.key === "/" && !inBox && !(event.target instanceof HTMLSelectElement)) {
    event.preventDefault();
    $("q").focus();
    $("q").select();
    return;
  }
  if (event.key === "Escape") {
    if (!$("preview").hidden) { closePreview(); return; }
    if (inBox && state.q) { state.q = ""; showState(); runSearch({ keepSelection: false }); }
    return;
  }
  if (event.target instanceof HTMLSelectElement) return;
  const horizontal = !inBox && (event.key === "ArrowLeft" || event.key === "ArrowRight");
  if (event.key === "ArrowDown") { event.preventDefault(); move(state.selected < 0 ? 0 : columns()); }
  else if (event.key === "ArrowUp") { event.preventDefault(); move(-columns()); }
  else if (horizontal) { event.preventDefault(); move(event.key === "ArrowLeft" ? -1 : 1); }
  else if (event.key === "Enter" && state.items.length) {
    event.preventDefault();
    if (state.selected < 0) select(0, { scroll: true });
    openPreview();
  }
});

// ---- Preview ----

const ATTRIBUTE_ORDER = ["title", "authors", "contentType", "contentDescription", "size", "pageCount",
  "pixelWidth", "pixelHeight", "contentModificationDate", "contentCreationDate", "keywords", "userTags", "comment", "starRating", "whereFroms",
  "contentTypeTree",
  "acquisitionMake", "acquisitionModel", "latitude", "longitude", "domain", "path", "matchedIn", "failure"];
const HIDDEN = new Set(["id", "displayName", "itemURL", "fileURL", "thumbnailURL", "openURL", "kind", "snippet", "searchingAlsoFor", "textPreview", "host"]);

function attributeText(key, value) {
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && !value.length)) return null;
  if (key === "starRating") return "★".repeat(Math.floor(value)) + (value % 1 ? "½" : "") + ` (${value} of 5)`;
  if (key === "size") return `${formatSize(value)} (${value.toLocaleString()} bytes)`;
  if (key.endsWith("Date")) return new Date(value).toLocaleString();
  if (key === "thumbnail") return `${value.format.toUpperCase()} ${value.width}×${value.height}, ${formatSize(value.bytes)}`;
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

async function openPreview() {
  const item = state.items[state.selected];
  if (!item) return;
  state.previewed = item;
  $("preview").hidden = false;
  renderPreview(item, null);
  try {
    const response = await fetch(item.itemURL);
    if (response.ok && state.previewed === item) renderPreview(item, await response.json());
  } catch { /* the search result has the attributes already */ }
}
function refreshPreview() {
  const item = state.items.find((candidate) => candidate.itemURL === state.previewed.itemURL);
  if (item) { state.items[state.selected] = item; openPreview(); }
}
function closePreview() {
  state.previewed = null;
  $("preview").hidden = true;
}

function renderPreview(item, full) {
  const data = full || item;
  const body = $("preview-body");
  const big = element("div", "big");
  big.append(item.thumbnailURL ? thumbnail(item, true) : typeIcon(item));
  const title = element("h2", null, item.displayName);
  const sub = element("p", "sub", folderOf(item) || "");
  const actions = element("div", "actions");
  const open = element("button", "primary");
  open.type = "button";
  open.innerHTML = '<svg viewBox="0 0 24 24"><path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/></svg>';
  open.append("Open");
  open.addEventListener("click", () => openOnDesktop(item));
  const download = element("a");
  download.href = item.fileURL + "?download=1";
  download.setAttribute("download", item.displayName);
  download.innerHTML = '<svg viewBox="0 0 24 24"><path d="M12 4v11M7 10l5 5 5-5M5 20h14"/></svg>';
  download.append("Download");
  const view = element("a");
  view.href = item.fileURL;
  view.target = "_blank";
  view.rel = "noopener";
  view.textContent = "View";
  if (item.fileURL) {
    actions.append(open, download, view);
  } else {
    // Another machine's file (a shared index): found and shown here, opened there.
    actions.append(element("p", "sub", `On ${item.host}: open it there.`));
  }
  const table = element("table", "attributes");
  const keys = [...ATTRIBUTE_ORDER, ...Object.keys(data).filter((key) => !ATTRIBUTE_ORDER.includes(key) && key !== "thumbnail"), "thumbnail"];
  for (const key of keys) {
    if (HIDDEN.has(key)) continue;
    const text = attributeText(key, data[key]);
    if (text === null) continue;
    const row = element("tr");
    row.append(element("th", null, key), element("td", null, text));
    table.append(row);
  }
  body.replaceChildren(big, title, sub, actions, table);
  if (item.snippet) {
    const snippet = element("p", "snippet");
    snippet.append(marked(item.snippet, "brackets"));
    body.insertBefore(snippet, actions);
  }
  if (full && full.textPreview) body.append(element("div", "textpreview", full.textPreview));
}

async function openOnDesktop(item) {
  try {
    const response = await fetch(item.openURL, { method: "POST", headers: { "X-Searchlight-Token": token } });
    const body = await response.json();
    toast(response.ok ? `Opened ${item.displayName}` : body.error);
  } catch (error) {
    toast("Could not open: " + error.message);
  }
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.timer);
  box.timer = setTimeout(() => { box.hidden = true; }, 3500);
}

// ---- Live updates ----

function listen() {
  const live = $("live");
  const events = new EventSource("/api/events");
  events.addEventListener("ready", () => live.classList.add("on"));
  events.addEventListener("change", () => {
    live.classList.remove("pulse");
    void live.offsetWidth;
    live.classList.add("pulse");
    loadRoots();
    if (state.q.trim()) runSearch({ keepSelection: true });
    else renderWelcome();
  });
  events.addEventListener("error", () => live.classList.remove("on"));
}

async function loadRoots() {
  try {
    const status = await (await fetch("/api/status")).json();
    const select = $("domain");
    const chosen = state.domain;
    select.replaceChildren(new Option("All folders", ""));
    for (const domain of status.domains) {
      const root = domain.root || domain.name;
      const label = domain.name === root ? root.split("/").filter(Boolean).pop() || root : domain.name;
      const option = new Option(`${label} (${domain.items.toLocaleString()})`, domain.name);
      option.title = root;
      select.append(option);
    }
    select.value = chosen;
  } catch { /* the folder filter stays empty */ }
}

// ---- Wiring ----

$("search-form").addEventListener("submit", (event) => { event.preventDefault(); runSearch({ keepSelection: false }); });
$("q").addEventListener("input", () => { state.q = $("q").value; showMode(); scheduleSearch(); });
for (const button of document.querySelectorAll(".mode button")) {
  button.addEventListener("click", () => { state.mode = button.dataset.mode; showState(); runSearch({ keepSelection: false }); $("q").focus(); });
}
for (const button of document.querySelectorAll("#kinds button")) {
  button.addEventListener("click", () => { state.kind = button.dataset.kind; showState(); runSearch({ keepSelection: false }); });
}
$("date").addEventListener("change", () => { state.date = $("date").value; runSearch({ keepSelection: false }); });
$("domain").addEventListener("change", () => { state.domain = $("domain").value; runSearch({ keepSelection: false }); });
$("preview-close").addEventListener("click", closePreview);
window.addEventListener("popstate", () => { readAddress(); showState(); runSearch({ keepSelection: false }); });

readAddress();
showState();
loadRoots().then(() => { $("domain").value = state.domain; });
runSearch({ keepSelection: false });
listen();
